import type { ValidationArguments } from 'class-validator';
import { shown } from './limits';
import { numberRange, rangeText } from './param-decorators';

/*
 * The messages of the DTO's rules: the API's 400s, word for word. class-validator replaces the
 * tokens $property, $value, $target and $constraintN in a message; the texts quoted here are
 * number texts that passed the plain-decimal or digits scanner, so they can hold no '$'.
 */

/** Where a DTO keeps each number's text as written, for the messages that quote it. */
export const WRITTEN = Symbol('written');
export interface Written {
  [WRITTEN]?: Record<string, string>;
}

/**
 * The value as the client wrote it: its query text, or the JSON number's own text. Every failing
 * rule's message is built, also for a value the type check refuses (whose message is the one
 * reported), so this must take any value.
 */
function writtenOf(a: ValidationArguments): string {
  const text = (a.object as Written)[WRITTEN]?.[a.property];
  if (text !== undefined) return text;
  return typeof a.value === 'number' ? String(a.value) : '';
}

export const REQUIRED = '$property is required';

/** "<name> must be <what>": the type a JSON value must have. */
export const mustBe = (what: string): string => `$property must be ${what}`;

/** A number outside its range (or not an integer): the range as the constraints state it. */
export function outOfRange(a: ValidationArguments): string {
  const r = numberRange(a.object.constructor, a.property);
  return `${a.property} must be ${r.integer ? 'an integer' : 'a number'} ${rangeText(r)}, got ${shown(writtenOf(a))}`;
}

/** An amount that is not positive: "> 0", whatever its smallest meaningful size (the rule after it). */
export function notPositive(a: ValidationArguments): string {
  return `${a.property} must be a number > 0, got ${shown(writtenOf(a))}`;
}

export function notEpochMs(a: ValidationArguments): string {
  return epochMsMessage(a.property, writtenOf(a));
}

/** asOf's one message, whether its text is malformed (the scanner) or its value out of range (the rules). */
export function epochMsMessage(name: string, text: string): string {
  return `${name} must be a plain integer of epoch milliseconds, got ${shown(text)}`;
}

export function tooMany(a: ValidationArguments): string {
  return `${a.property} has more than ${String(a.constraints[0])} entries`;
}

/** "<name> must be a or b" / "must be one of a, b, c". */
export function oneOf(values: readonly string[]): string {
  return mustBe(values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`);
}

export const NOT_AN_ASSET = mustBe('an asset symbol matching ^[A-Z0-9._-]{1,32}$ after trim and upper-case');
