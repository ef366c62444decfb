import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

/**
 * sharp, loaded on first use: its native library adds some 30 MB of resident memory to a
 * process, which a server that never receives or renders an image should not pay. A
 * dynamic import of the package itself, so the server's bundle keeps it out of its start.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
