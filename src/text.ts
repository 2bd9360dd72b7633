import type { z } from 'zod';

// Text a client sends must reach the database exactly as sent, or be refused with a message that
// names the field. Two kinds of JavaScript string cannot make that trip:
// - U+0000 (NUL): PostgreSQL refuses it in text ("invalid byte sequence for encoding UTF8: 0x00")
//   and in jsonb ("unsupported Unicode escape sequence"), which would be a 500 or an aborted batch.
// - an unpaired UTF-16 surrogate (JSON allows "\ud800"): it has no UTF-8 form, so the driver
//   writes U+FFFD instead and the value changes without anyone being told.
// Every input path (API and dashboard schemas, account services, register readers) checks text
// with the functions below before it goes anywhere near SQL.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// C0 controls, DEL and C1 controls: invisible on a page, and a line break or an escape sequence in
// a name breaks the one-line CLI message, a log line or the terminal that shows it.
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

// Characters that change how the text around them is shown without being seen: the bidirectional
// embeddings, overrides and isolates (U+202E turns `gpj.exe` into what looks like `exe.jpg`), the
// directional marks, and the Unicode line and paragraph separators, which start a new line in a
// plain-text e-mail or a log just like CR/LF.
const BIDI_OR_LINE_SEPARATOR = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/;
// A name made only of these shows as nothing at all: whitespace, format characters (zero-width
// space and joiners, word joiner, BOM), default-ignorable code points and lone combining marks.
const INVISIBLE_ONLY = /^[\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}\p{M}]*$/u;

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
export const SURROGATE_MESSAGE = 'must be valid Unicode (it contains an unpaired surrogate)';
export const CONTROL_MESSAGE = 'must be one line of text without control characters';
export const BIDI_MESSAGE =
  'must not contain bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) or line separators (U+2028, U+2029)';
export const INVISIBLE_MESSAGE = 'must contain at least one visible character';

/** Why the database cannot store `value` as it is, or null when it can. */
export function unstorableReason(value: string): string | null {
  if (value.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(value)) return SURROGATE_MESSAGE;
  return null;
}

/**
 * Why `value` cannot be shown as one line exactly as it is: control characters, bidirectional
 * controls, line separators. Null when it can. Register text (mark texts, owner names) is held to
 * this, since it reaches e-mails, pages and logs.
 */
export function lineTextReason(value: string): string | null {
  if (hasControlCharacter(value)) return CONTROL_MESSAGE;
  if (BIDI_OR_LINE_SEPARATOR.test(value)) return BIDI_MESSAGE;
  return null;
}

/**
 * Why `value` is not a storable one-line name, or null: no control characters, bidirectional
 * controls or line separators, and at least one visible character (a zero-width-only name would
 * be a blank link in every list).
 */
export function nameTextReason(value: string): string | null {
  return (
    unstorableReason(value) ??
    lineTextReason(value) ??
    (INVISIBLE_ONLY.test(value) ? INVISIBLE_MESSAGE : null)
  );
}

/**
 * The Zod check of text the database can store, for any string schema: `label` starts the message,
 * e.g. "Name must not contain the NUL character (U+0000)." under the field's dotted path.
 */
export function storableText<T extends z.ZodType<string, string>>(schema: T, label: string): T {
  return schema.check(issueFor(unstorableReason, label)) as T;
}

/** As {@link storableText}, and one line without control characters: names and labels. */
export function nameText<T extends z.ZodType<string, string>>(schema: T, label: string): T {
  return schema.check(issueFor(nameTextReason, label)) as T;
}

function issueFor(reasonOf: (value: string) => string | null, label: string) {
  return (ctx: z.core.ParsePayload<string>) => {
    const reason = reasonOf(ctx.value);
    if (reason !== null) {
      ctx.issues.push({ code: 'custom', message: `${label} ${reason}.`, input: ctx.value });
    }
  };
}

/**
 * The first string or key anywhere in a parsed JSON value that the database cannot store, with its
 * dotted path (`owner.names.2`), or null. For values kept whole, such as a register record's raw
 * payload (jsonb), where no schema lists every field.
 */
export function findUnstorableText(
  value: unknown,
  path: readonly (string | number)[] = [],
): { path: string; reason: string } | null {
  const at = (p: readonly (string | number)[]) => p.map(String).join('.');
  if (typeof value === 'string') {
    const reason = unstorableReason(value);
    return reason === null ? null : { path: at(path), reason };
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorableText(item, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const keyReason = unstorableReason(key);
      if (keyReason !== null) {
        return { path: at([...path, JSON.stringify(key)]), reason: `key ${keyReason}` };
      }
      const found = findUnstorableText(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const LINE_BREAKING = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

/**
 * Text from the register on one line: control characters and line separators become one space,
 * so that a mark text or an owner name can never start a line of its own in an e-mail or a
 * rationale (`ACME\r\nBcc: x@example.com`).
 */
export function oneLine(value: string): string {
  return value.replace(LINE_BREAKING, ' ').trim();
}
