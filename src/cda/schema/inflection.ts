/**
 * English plurals as DatoCMS names its collection roots (`allCategories`, `allPeople`):
 * Rails' inflection rules (DatoCMS is a Rails application), the last word only.
 */

const UNCOUNTABLE = new Set([
  'equipment',
  'information',
  'rice',
  'money',
  'species',
  'series',
  'fish',
  'sheep',
  'jeans',
  'police',
]);

const IRREGULAR: Readonly<Record<string, string>> = {
  person: 'people',
  man: 'men',
  child: 'children',
  sex: 'sexes',
  move: 'moves',
  zombie: 'zombies',
};

/** Rails' plural rules, most specific first. */
const RULES: readonly (readonly [RegExp, string])[] = [
  [/(quiz)$/i, '$1zes'],
  [/^(oxen)$/i, '$1'],
  [/^(ox)$/i, '$1en'],
  [/^(m|l)ice$/i, '$1ice'],
  [/^(m|l)ouse$/i, '$1ice'],
  [/(matr|vert|ind)(?:ix|ex)$/i, '$1ices'],
  [/(x|ch|ss|sh)$/i, '$1es'],
  [/([^aeiouy]|qu)y$/i, '$1ies'],
  [/(hive)$/i, '$1s'],
  [/(?:([^f])fe|([lr])f)$/i, '$1$2ves'],
  [/sis$/i, 'ses'],
  [/([ti])a$/i, '$1a'],
  [/([ti])um$/i, '$1a'],
  [/(buffal|tomat)o$/i, '$1oes'],
  [/(bu)s$/i, '$1ses'],
  [/(alias|status)$/i, '$1es'],
  [/(octop|vir)i$/i, '$1i'],
  [/(octop|vir)us$/i, '$1i'],
  [/^(ax|test)is$/i, '$1es'],
  [/s$/i, 's'],
];

/** The plural of one lower-case word. */
export function pluralWord(word: string): string {
  if (UNCOUNTABLE.has(word)) return word;
  const irregular = IRREGULAR[word];
  if (irregular !== undefined) return irregular;
  for (const [pattern, replacement] of RULES) {
    if (pattern.test(word)) return word.replace(pattern, replacement);
  }
  return `${word}s`;
}
