/**
 * The shape every condition shares (see index.ts): nothing is returned when the rule holds; a
 * ConditionFailure is thrown when it does not, its message saying what was found and what the rule
 * asks, and ending with the curl line of the answer when there is one.
 */

/** An answer as a condition reads it: the harness's Exchange has this shape, and a unit test can write one by hand. */
export interface Answer {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The body as received ('' when there is none). */
  text: string;
  /** The body parsed as JSON; undefined when it is empty or does not parse. */
  json: unknown;
  /** The request as a curl line, secrets redacted: the end of every failure message about the answer. */
  curl?: string;
}

/** Thrown by a condition whose rule does not hold; the message is the finding. */
export class ConditionFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConditionFailure';
  }
}

/** Ends a condition: the rule does not hold. The answer's curl line, when given, closes the message. */
export function fail(message: string, answer?: Pick<Answer, 'curl'>): never {
  throw new ConditionFailure(answer?.curl === undefined ? message : `${message}\n${answer.curl}`);
}

/**
 * The finding of a condition as data, for callers that collect findings instead of failing a check
 * (the generated layer): undefined when it holds, its message when it does not. Any other error is a
 * fault of the caller or of the condition, and is thrown on.
 */
export function failureOf(condition: () => void): string | undefined {
  try {
    condition();
    return undefined;
  } catch (error) {
    if (error instanceof ConditionFailure) return error.message;
    throw error;
  }
}

/** A value as a finding shows it: JSON, cut at `max` characters. */
export function shown(value: unknown, max = 300): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
