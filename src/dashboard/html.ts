import { renderMarkdown } from '../markdown.ts';

/**
 * HTML that is safe to send: built only by the `html` tag below, which escapes every
 * interpolated value unless it is itself SafeHtml. There is deliberately no way to mark an
 * arbitrary string as safe, so user data cannot reach a page unescaped.
 */
const MINT = Symbol('SafeHtml');

export class SafeHtml {
  readonly #text: string;
  /** Only this module holds MINT: SafeHtml comes from escaped values and template literals. */
  constructor(mint: symbol, text: string) {
    if (mint !== MINT) throw new Error('SafeHtml is made only by the html tag');
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

export type HtmlValue =
  | SafeHtml
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => ESCAPES[ch] ?? ch);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.toString();
  // false, null and undefined render nothing, so `${cond && html`…`}` reads naturally.
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * Markdown the service stored (an alert's rationale) as HTML: the one other way SafeHtml is made.
 * The renderer escapes all raw HTML and refuses unsafe link URLs (src/markdown.ts), so what comes
 * out is markup the renderer wrote around escaped text.
 */
export function markdown(source: string): SafeHtml {
  return new SafeHtml(MINT, renderMarkdown(source));
}

/** Tagged template: `html\`<p>${name}</p>\`` escapes `name`; nested html`` stays as is. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    out += render(values[i]) + (strings[i + 1] ?? '');
  }
  return new SafeHtml(MINT, out);
}

/** Joins fragments with a separator fragment between them. */
export function join(parts: readonly SafeHtml[], separator: SafeHtml): SafeHtml {
  return html`${parts.flatMap((part, i) => (i === 0 ? [part] : [separator, part]))}`;
}
