/** How asset renditions are bounded and kept (docs/uploads.md's configuration table). */
export type ImageConfig = Readonly<{
  /** Largest width or height of a rendition, in pixels (after `dpr`). */
  maxDimension: number;
  /** Largest width × height of a rendition. */
  maxPixels: number;
  /** Largest source (width × height, decoded) a rendition is made from. */
  maxInputPixels: number;
  /** Renders one process runs at once. */
  concurrency: number;
  /** Renders that may wait for a turn; past them a request is refused with 503. */
  maxWaiting: number;
  /** Where renditions are cached, on this host's disk (whatever the storage). */
  renditionsDir: string;
  /** Bytes of renditions kept before the least recently used are deleted. */
  renditionsMaxBytes: number;
}>;
