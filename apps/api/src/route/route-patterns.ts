/** An asset after trim and upper-case (clarifications 9). */
export const ASSET = /^[A-Z0-9._-]{1,32}$/;
