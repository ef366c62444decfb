import type { IssuedUploadRequest } from '../domain/uploads/request-upload.ts';
import type { Resource } from './jsonapi.ts';

/**
 * An upload request as the client reads it: its id is the path the upload will have,
 * `url` is where to PUT the bytes (a presigned storage URL, or `sinkBase` + token).
 */
export function presentUploadRequest(issued: IssuedUploadRequest, sinkBase: string): Resource {
  const url =
    issued.target.kind === 'direct' ? issued.target.url : `${sinkBase}${issued.target.token}`;
  return { type: 'upload_request', id: issued.path, attributes: { url, request_headers: {} } };
}
