import {
  GraphQLEnumType,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
} from 'graphql';
import { BoundedMemo } from '../../bounded-memo.ts';
import { BooleanType, FloatType, IntType } from '../schema/scalars.ts';

/**
 * `ImgixParams`, the image transformation argument of `url`, `responsiveImage` and
 * `blurUpThumb`, as DatoCMS's generated schemas declare it (camelCase names), and how a
 * given value becomes imgix's query string (`maxW` → `max-w`, `auto: [format, compress]`
 * → `auto=format,compress`). The asset server applies the parameters it implements and
 * ignores the rest, as imgix ignores unknown ones.
 */

const enumOf = (name: string, values: readonly string[]) =>
  new GraphQLEnumType({
    name,
    values: Object.fromEntries(values.map((value) => [value, { value }])),
  });

const ALIGN = ['bottom', 'center', 'left', 'middle', 'right', 'top'];

const ENUMS = {
  auto: ['ImgixParamsAuto', ['compress', 'enhance', 'format', 'redeye'], true],
  blendAlign: ['ImgixParamsBlendAlign', ALIGN, true],
  blendCrop: ['ImgixParamsBlendCrop', ['bottom', 'faces', 'left', 'right', 'top'], true],
  blendFit: ['ImgixParamsBlendFit', ['clamp', 'clip', 'crop', 'max', 'scale'], false],
  blendMode: [
    'ImgixParamsBlendMode',
    [
      'burn',
      'color',
      'darken',
      'difference',
      'dodge',
      'exclusion',
      'hardlight',
      'hue',
      'lighten',
      'luminosity',
      'multiply',
      'normal',
      'overlay',
      'saturation',
      'screen',
      'softlight',
    ],
    false,
  ],
  blendSize: ['ImgixParamsBlendSize', ['inherit'], false],
  ch: ['ImgixParamsCh', ['dpr', 'saveData', 'width'], true],
  crop: [
    'ImgixParamsCrop',
    ['bottom', 'edges', 'entropy', 'faces', 'focalpoint', 'left', 'right', 'top'],
    true,
  ],
  cs: ['ImgixParamsCs', ['adobergb1998', 'srgb', 'strip', 'tinysrgb'], false],
  fill: ['ImgixParamsFill', ['blur', 'solid'], false],
  fit: [
    'ImgixParamsFit',
    ['clamp', 'clip', 'crop', 'facearea', 'fill', 'fillmax', 'max', 'min', 'scale'],
    false,
  ],
  flip: ['ImgixParamsFlip', ['h', 'hv', 'v'], false],
  fm: [
    'ImgixParamsFm',
    [
      'avif',
      'blurhash',
      'gif',
      'jp2',
      'jpg',
      'json',
      'jxr',
      'mp4',
      'pjpg',
      'png',
      'png8',
      'png32',
      'webm',
      'webp',
    ],
    false,
  ],
  iptc: ['ImgixParamsIptc', ['allow', 'block'], false],
  markAlign: ['ImgixParamsMarkAlign', ALIGN, true],
  markFit: ['ImgixParamsMarkFit', ['clip', 'crop', 'fill', 'max', 'scale'], false],
  markTile: ['ImgixParamsMarkTile', ['grid'], false],
  palette: ['ImgixParamsPalette', ['css', 'json'], false],
  transparency: ['ImgixParamsTransparency', ['grid'], false],
  trim: ['ImgixParamsTrim', ['auto', 'color'], false],
  txtAlign: ['ImgixParamsTxtAlign', ALIGN, true],
  txtClip: ['ImgixParamsTxtClip', ['ellipsis', 'end', 'middle', 'start'], true],
  txtFit: ['ImgixParamsTxtFit', ['max'], false],
} as const satisfies Record<string, readonly [string, readonly string[], boolean]>;

/** Scalar parameters by their type: S string, I integer, F float, B boolean. */
const SCALARS =
  'ar:S bg:S bgRemove:B blend:S blendAlpha:I blendColor:S blendH:F blendPad:I blendW:F ' +
  'blendX:I blendY:I blur:I border:S borderBottom:I borderLeft:I borderRadius:S ' +
  'borderRadiusInner:S borderRight:I borderTop:I bri:I chromasub:I colorquant:I colors:I ' +
  'con:I cornerRadius:S dl:S dpi:I dpr:F duotone:S duotoneAlpha:I exp:I expires:I ' +
  'faceindex:I facepad:F faces:I fillColor:S fpDebug:B fpX:F fpY:F fpZ:F fps:I frame:S ' +
  'gam:I gifQ:I gridColors:S gridSize:I h:F high:I htn:I hue:I interval:I invert:B ' +
  'loop:I lossless:B mark:S markAlpha:I markBase:S markH:F markPad:I markRot:F markScale:I ' +
  'markW:F markX:I markY:I mask:S maskBg:S maxH:I maxW:I minH:I minW:I monochrome:S nr:I ' +
  'nrs:I orient:I pad:I padBottom:I padLeft:I padRight:I padTop:I page:I pdfAnnotation:B ' +
  'prefix:S px:I q:I rect:S reverse:B rot:F sat:I sepia:I shad:F sharp:F skip:I ' +
  'trimColor:S trimMd:F trimPad:I trimSd:F trimTol:F txt:S txtColor:S txtFont:S txtLead:I ' +
  'txtLig:I txtLine:I txtLineColor:S txtPad:I txtShad:F txtSize:I txtTrack:I txtWidth:I ' +
  'txtX:I txtY:I usm:I usmrad:F vib:I w:F';

const SCALAR_TYPES: Record<string, GraphQLInputType> = {
  S: GraphQLString,
  I: IntType,
  F: FloatType,
  B: BooleanType,
};

function inputFields(): GraphQLInputFieldConfigMap {
  const fields: GraphQLInputFieldConfigMap = {};
  for (const entry of SCALARS.split(' ')) {
    const [name, kind] = entry.split(':') as [string, string];
    fields[name] = { type: SCALAR_TYPES[kind] as GraphQLInputType };
  }
  for (const [name, [typeName, values, many]] of Object.entries(ENUMS)) {
    const type = enumOf(typeName, values);
    fields[name] = { type: many ? new GraphQLList(new GraphQLNonNull(type)) : type };
  }
  return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export const ImgixParams = new GraphQLInputObjectType({
  name: 'ImgixParams',
  fields: inputFields,
});

export type ImgixArgs = Readonly<Record<string, unknown>>;

// Names are ImgixParams' own fields (the arguments were validated against it), spelled
// again for every URL of every srcSet: kept once spelled.
const imgixNames = new BoundedMemo<string, string>(1000);

/** `fpX` → `fp-x`, `txtLineColor` → `txt-line-color`, `gifQ` → `gif-q`. */
export function imgixName(name: string): string {
  return imgixNames.get(name, () => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`));
}

/** The query parameters of an `ImgixParams` value, in imgix's spelling, sorted by name. */
export function imgixQuery(params: ImgixArgs | null | undefined): [string, string][] {
  if (!params) return [];
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    pairs.push([imgixName(name), Array.isArray(value) ? value.join(',') : String(value)]);
  }
  return pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
