/** What a caught value says: its message if it is an Error, else the value as text. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A caught value as an Error (a thrown string or object wrapped, its text as the message). */
export function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
