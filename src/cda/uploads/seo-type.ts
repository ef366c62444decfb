import { GraphQLObjectType, GraphQLString } from 'graphql';
import type { DeliveryContext, DeliveryRecord } from '../resolvers/context.ts';
import { BooleanType } from '../schema/scalars.ts';
import { uploadValue } from './file-values.ts';

/** A stored SEO value (`{title, description, image, twitter_card, no_index}`) with the locale it is read in. */
export type SeoValue = Readonly<{
  stored: Readonly<Record<string, unknown>>;
  reader: Pick<DeliveryRecord, 'locale' | 'fallbackLocales'>;
}>;

export function seoValue(
  stored: unknown,
  reader: Pick<DeliveryRecord, 'locale' | 'fallbackLocales'>,
): SeoValue | null {
  if (stored === null || typeof stored !== 'object') return null;
  return { stored: stored as Record<string, unknown>, reader };
}

/** `SeoField`: its image a `FileField`, loaded with the request's other uploads. */
export function seoFieldType(fileField: GraphQLObjectType): GraphQLObjectType {
  const text = (key: string) => ({
    type: GraphQLString,
    resolve: ({ stored }: SeoValue) => (stored[key] ?? null) as string | null,
  });
  return new GraphQLObjectType<SeoValue, DeliveryContext>({
    name: 'SeoField',
    fields: {
      description: text('description'),
      image: {
        type: fileField,
        extensions: { cost: 'file' },
        resolve: ({ stored, reader }, _args, context) => uploadValue(stored.image, reader, context),
      },
      noIndex: {
        type: BooleanType,
        resolve: ({ stored }) => (stored.no_index ?? null) as boolean | null,
      },
      title: text('title'),
      twitterCard: text('twitter_card'),
    },
  });
}
