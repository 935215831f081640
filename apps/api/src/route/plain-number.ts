import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/** Plain decimal: optional sign, digits with optional fraction, optional exponent (clarifications 9). */
export const PLAIN_DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export interface NumberRule {
  readonly min: number;
  readonly max?: number;
  /** min itself is not allowed (amounts: > 0). */
  readonly minExclusive?: boolean;
  readonly integer?: boolean;
}

/** Why `raw` breaks `rule`, or null when it is a valid number. */
export function numberProblem(name: string, raw: string, rule: NumberRule): string | null {
  const kind = rule.integer === true ? 'an integer' : 'a number';
  const range = describeRange(rule);
  if (!PLAIN_DECIMAL.test(raw)) return `${name} must be ${kind} written as a plain decimal, got '${raw}'`;
  const n = Number(raw);
  if (!Number.isFinite(n)) return `${name} must be finite, got '${raw}'`;
  if (rule.integer === true && !Number.isInteger(n))
    return `${name} must be an integer ${range}, got '${raw}'`;
  const low = rule.minExclusive === true ? n <= rule.min : n < rule.min;
  if (low || (rule.max !== undefined && n > rule.max))
    return `${name} must be ${kind} ${range}, got '${raw}'`;
  return null;
}

function describeRange(rule: NumberRule): string {
  if (rule.max !== undefined) return `from ${rule.min} to ${rule.max}`;
  return rule.minExclusive === true ? `> ${rule.min}` : `>= ${rule.min}`;
}

/** class-validator rule: the string is a plain decimal number within `rule`. */
export function IsPlainNumber(rule: NumberRule, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isPlainNumber',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      constraints: [rule],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && numberProblem('', value, rule) === null,
        defaultMessage: (args: ValidationArguments) =>
          numberProblem(args.property, String(args.value), rule) ?? '',
      },
    });
  };
}
