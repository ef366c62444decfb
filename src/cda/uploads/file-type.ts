import {
  type GraphQLEnumType,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLScalarType,
  GraphQLString,
} from 'graphql';
import { basenameOf, filenameOf } from '../../domain/upload-file-names.ts';
import type { DeliveryContext } from '../resolvers/context.ts';
import { colorOutput } from '../resolvers/field-outputs.ts';
import { CustomData, DateTime, FloatType, IntType, UploadId } from '../schema/scalars.ts';
import { ColorField, nonNull } from '../schema/shared-types.ts';
import { type FileValue, resolvedMetadata } from './file-value.ts';
import { imageUrl, placeholderDataUri, responsiveImage } from './image-url.ts';
import { type ImgixArgs, ImgixParams } from './imgix-params.ts';

const ResponsiveImage = new GraphQLObjectType({
  name: 'ResponsiveImage',
  fields: {
    alt: { type: GraphQLString },
    aspectRatio: { type: nonNull(FloatType) },
    base64: { type: GraphQLString },
    bgColor: { type: GraphQLString },
    height: { type: nonNull(IntType) },
    sizes: { type: nonNull(GraphQLString) },
    src: { type: nonNull(GraphQLString) },
    srcSet: { type: nonNull(GraphQLString) },
    title: { type: GraphQLString },
    webpSrcSet: { type: nonNull(GraphQLString) },
    width: { type: nonNull(IntType) },
  },
});

/** Named in lower case in DatoCMS's schemas. */
const FocalPoint = new GraphQLObjectType({
  name: 'focalPoint',
  fields: { x: { type: nonNull(FloatType) }, y: { type: nonNull(FloatType) } },
});

/** Videos are not streamed here: `video` is always null, its type kept for generated code. */
const UploadVideoField = new GraphQLObjectType({
  name: 'UploadVideoField',
  fields: {
    duration: { type: GraphQLInt },
    framerate: { type: GraphQLInt },
    mp4Url: { type: GraphQLString },
    muxAssetId: { type: nonNull(GraphQLString) },
    muxPlaybackId: { type: nonNull(GraphQLString) },
    streamingUrl: { type: nonNull(GraphQLString) },
    thumbnailUrl: { type: nonNull(GraphQLString) },
  },
});

type LocaleArgs = { locale?: string | null; fallbackLocales?: string[] | null };
type Fields = GraphQLFieldConfigMap<FileValue, DeliveryContext>;

/** The value's metadata in the locale the field asks for, else the record's. */
function metadata(value: FileValue, args: LocaleArgs) {
  return resolvedMetadata(
    value,
    args.locale ?? value.locale,
    args.fallbackLocales ?? value.fallbackLocales,
  );
}

function imageSource(value: FileValue, args: LocaleArgs, context: DeliveryContext) {
  const { upload } = value;
  return {
    url: `${context.assetsBase}${upload.path}`,
    width: upload.width,
    height: upload.height,
    focalPoint: metadata(value, args).focalPoint,
  };
}

function fileFields(siteLocale: GraphQLEnumType): Fields {
  const localeArgs = {
    locale: { type: siteLocale },
    fallbackLocales: { type: new GraphQLList(nonNull(siteLocale)) },
  };
  const iso = (at: Date) => at.toISOString();
  return {
    _createdAt: { type: nonNull(DateTime), resolve: ({ upload }) => iso(upload.createdAt) },
    _editingUrl: { type: GraphQLString, resolve: () => null },
    _updatedAt: { type: nonNull(DateTime), resolve: ({ upload }) => iso(upload.updatedAt) },
    alt: {
      type: GraphQLString,
      args: localeArgs,
      resolve: (value, args: LocaleArgs) => metadata(value, args).alt,
    },
    author: { type: GraphQLString, resolve: ({ upload }) => upload.author },
    basename: {
      type: nonNull(GraphQLString),
      resolve: ({ upload }) => basenameOf(filenameOf(upload.path)),
    },
    blurUpThumb: {
      type: GraphQLString,
      args: {
        imgixParams: { type: ImgixParams },
        punch: { type: nonNull(GraphQLFloat), defaultValue: 1 },
        quality: { type: nonNull(GraphQLInt), defaultValue: 70 },
        size: { type: nonNull(GraphQLInt), defaultValue: 24 },
      },
      resolve: ({ upload }) => placeholderDataUri(upload.thumbhash),
    },
    blurhash: { type: GraphQLString, resolve: ({ upload }) => upload.blurhash },
    colors: {
      type: nonNull(new GraphQLList(nonNull(ColorField))),
      resolve: ({ upload }) => upload.colors.map(colorOutput),
    },
    copyright: { type: GraphQLString, resolve: ({ upload }) => upload.copyright },
    customData: {
      type: nonNull(CustomData),
      args: localeArgs,
      resolve: (value, args: LocaleArgs) => metadata(value, args).customData,
    },
    exifInfo: { type: nonNull(CustomData), resolve: ({ upload }) => upload.exifInfo },
    filename: { type: nonNull(GraphQLString), resolve: ({ upload }) => filenameOf(upload.path) },
    focalPoint: {
      type: FocalPoint,
      args: localeArgs,
      resolve: (value, args: LocaleArgs) => metadata(value, args).focalPoint,
    },
    format: { type: nonNull(GraphQLString), resolve: ({ upload }) => upload.format ?? '' },
    height: { type: IntType, resolve: ({ upload }) => upload.height },
    id: { type: nonNull(UploadId), resolve: ({ upload }) => upload.id },
    md5: { type: nonNull(GraphQLString), resolve: ({ upload }) => upload.md5 },
    mimeType: { type: nonNull(GraphQLString), resolve: ({ upload }) => upload.mimeType },
    notes: { type: GraphQLString, resolve: ({ upload }) => upload.notes },
    responsiveImage: {
      type: ResponsiveImage,
      args: { ...localeArgs, imgixParams: { type: ImgixParams }, sizes: { type: GraphQLString } },
      resolve: (
        value,
        args: LocaleArgs & { imgixParams?: ImgixArgs | null; sizes?: string | null },
        context,
      ) => {
        if (!value.upload.isImage) return null;
        const meta = metadata(value, args);
        const color = value.upload.colors[0];
        return responsiveImage(imageSource(value, args, context), args.imgixParams, {
          sizes: args.sizes,
          alt: meta.alt,
          title: meta.title,
          thumbhash: value.upload.thumbhash,
          bgColor: color ? (colorOutput(color)?.hex ?? null) : null,
        });
      },
    },
    size: { type: nonNull(IntType), resolve: ({ upload }) => upload.size },
    smartTags: {
      type: nonNull(new GraphQLList(nonNull(GraphQLString))),
      resolve: ({ upload }) => upload.smartTags,
    },
    tags: {
      type: nonNull(new GraphQLList(nonNull(GraphQLString))),
      resolve: ({ upload }) => upload.tags,
    },
    thumbhash: { type: GraphQLString, resolve: ({ upload }) => upload.thumbhash },
    title: {
      type: GraphQLString,
      args: localeArgs,
      resolve: (value, args: LocaleArgs) => metadata(value, args).title,
    },
    url: {
      type: nonNull(GraphQLString),
      args: { imgixParams: { type: ImgixParams } },
      resolve: (value, args: { imgixParams?: ImgixArgs | null }, context) =>
        imageUrl(imageSource(value, {}, context), args.imgixParams),
    },
    video: { type: UploadVideoField, resolve: () => null },
    width: { type: IntType, resolve: ({ upload }) => upload.width },
  };
}

/** What strict mode guarantees of a file field's value, from its validators. */
export type FileGuarantees = Readonly<{
  /** `extension` limited to images imgix can transform. */
  image: boolean;
  /**
   * `extension` limited to videos. DatoCMS's `VideoFileField` promises `width`, `height`
   * and `video` (Mux); no video is probed or streamed here, so they stay nullable: the
   * variant is the type name generated code and fragments (`on VideoFileField`) expect.
   */
  video: boolean;
  /** `required_alt_title` with `alt` / `title`. */
  alt: boolean;
  title: boolean;
}>;

const CENTER = Object.freeze({ x: 0.5, y: 0.5 });

/**
 * The fields strict mode makes non-null, as DatoCMS's strict schemas type them: an
 * image's `width`, `height`, `focalPoint` (its centre when none is set) and
 * `responsiveImage`; a required `alt` or `title`. Valid records hold such values.
 */
function guaranteedFields(fields: Fields, guarantees: FileGuarantees): Fields {
  const narrowed: Fields = { ...fields };
  const nonNullOf = (name: string) => {
    const field = fields[name] as Fields[string];
    narrowed[name] = {
      ...field,
      type: new GraphQLNonNull(field.type as GraphQLScalarType | GraphQLObjectType),
    };
  };
  if (guarantees.image) {
    for (const name of ['width', 'height', 'responsiveImage']) nonNullOf(name);
    narrowed.focalPoint = {
      ...fields.focalPoint,
      type: nonNull(FocalPoint),
      resolve: (value, args: LocaleArgs) => metadata(value, args).focalPoint ?? CENTER,
    };
  }
  if (guarantees.alt) nonNullOf('alt');
  if (guarantees.title) nonNullOf('title');
  return narrowed;
}

export type FileTypes = Readonly<{
  FileFieldInterface: GraphQLInterfaceType;
  FileField: GraphQLObjectType;
  /**
   * `FileField`, or in strict mode the narrowed variant DatoCMS names
   * `[Image|Video][Alt][Title]FileField` (`ImageFileField`, `AltFileField`,
   * `VideoAltTitleFileField` …), made once per schema.
   */
  guaranteed: (guarantees: FileGuarantees) => GraphQLObjectType;
}>;

/** `FileFieldInterface` and `FileField`, whose locale arguments name the schema's locales. */
export function fileTypes(siteLocale: GraphQLEnumType): FileTypes {
  const fields = () => fileFields(siteLocale);
  const FileFieldInterface = new GraphQLInterfaceType({
    name: 'FileFieldInterface',
    fields: () =>
      Object.fromEntries(
        Object.entries(fields()).map(([name, { resolve: _resolve, ...rest }]) => [name, rest]),
      ),
  });
  const FileField = new GraphQLObjectType<FileValue, DeliveryContext>({
    name: 'FileField',
    interfaces: [FileFieldInterface],
    fields,
  });
  const variants = new Map<string, GraphQLObjectType>();
  const guaranteed = (guarantees: FileGuarantees) => {
    const kind = guarantees.image ? 'Image' : guarantees.video ? 'Video' : '';
    const name = `${kind}${guarantees.alt ? 'Alt' : ''}${guarantees.title ? 'Title' : ''}FileField`;
    if (name === 'FileField') return FileField;
    let variant = variants.get(name);
    if (!variant) {
      variant = new GraphQLObjectType<FileValue, DeliveryContext>({
        name,
        interfaces: [FileFieldInterface],
        fields: () => guaranteedFields(fields(), guarantees),
      });
      variants.set(name, variant);
    }
    return variant;
  };
  return { FileFieldInterface, FileField, guaranteed };
}
