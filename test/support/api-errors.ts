import assert from 'node:assert/strict';
import { ApiError } from '@datocms/cma-client-node';

/** The error as the official client's ApiError, failing the test if it is anything else. */
export function apiError(error: unknown): ApiError {
  assert.ok(error instanceof ApiError, `expected ApiError, got ${String(error)}`);
  return error;
}

/** Asserts the call fails with an api_error of this code whose details include these. */
export async function rejectsWithApiError(
  call: Promise<unknown>,
  code: string,
  details: Record<string, string> = {},
): Promise<void> {
  await assert.rejects(call, (error) => {
    const found = apiError(error).findError(code, details);
    assert.ok(
      found,
      `${code} ${JSON.stringify(details)} → ${JSON.stringify(apiError(error).errors)}`,
    );
    return true;
  });
}

/** Asserts the call fails with an api_error of this code whose first message matches. */
export async function rejectsWithMessage(
  call: Promise<unknown>,
  code: string,
  message: RegExp,
): Promise<void> {
  await assert.rejects(call, (error) => {
    const [entry] = apiError(error).errors;
    assert.equal(entry?.attributes.code, code);
    assert.match(String(entry?.attributes.details.message), message);
    return true;
  });
}

/** The error codes of a raw error response document. */
export function errorCodesOf(body: unknown): string[] {
  return (body as { data: { attributes: { code: string } }[] }).data.map((e) => e.attributes.code);
}
