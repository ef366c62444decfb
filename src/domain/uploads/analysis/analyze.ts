import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import mime from 'mime-types';
import { extensionOf } from '../../upload-file-names.ts';
import type { UploadMetadata } from '../upload.ts';
import { readExif } from './exif.ts';
import { analyzeImage } from './image.ts';
import { smartTagsOf } from './smart-tags.ts';

/**
 * Everything Fieldhouse computes from a file, reading it from disk: its size and MD5 in
 * one streamed pass, its type sniffed from its first bytes (the name only when the
 * content says nothing, as for text and SVG), and for images what sharp decodes at
 * thumbnail size. The cost is bounded whatever the file: the hash streams, and images
 * are decoded shrunk (JPEG and WebP shrink on load) within sharp's pixel limit.
 */
export async function analyzeFile(file: string, filename: string): Promise<UploadMetadata> {
  const [digest, info, sniffed] = await Promise.all([
    md5Of(file),
    stat(file),
    fileTypeFromFile(file),
  ]);
  const extension = extensionOf(filename);
  const mimeType = sniffed?.mime ?? (mime.lookup(filename) || 'application/octet-stream');
  const image = await analyzeImage(file);
  const base = { size: info.size, md5: digest, mimeType };
  if (!image) {
    return {
      ...base,
      format: extension,
      isImage: false,
      width: null,
      height: null,
      blurhash: null,
      thumbhash: null,
      colors: [],
      exifInfo: {},
      smartTags: [],
    };
  }
  return {
    ...base,
    // SVG has no magic number: sharp's reading it is what makes it one.
    mimeType: image.format === 'svg' ? 'image/svg+xml' : mimeType,
    format: image.format,
    isImage: true,
    width: image.width,
    height: image.height,
    blurhash: image.blurhash,
    thumbhash: image.thumbhash,
    colors: image.colors,
    exifInfo: image.hasExif ? await readExif(file) : {},
    smartTags: smartTagsOf(image.colors),
  };
}

async function md5Of(file: string): Promise<string> {
  const hash = createHash('md5');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}
