/** Bounds on user-supplied strings, so no request can store unbounded text. */
export const MAX_NAME_LENGTH = 255;
export const MAX_API_KEY_LENGTH = 64;
export const MAX_HINT_LENGTH = 10_000;
