import type { ValidationDetails } from '../domain/errors.ts';
import { formField } from './form.ts';

// The watch form speaks in text boxes; the API speaks JSON. This module turns one into the other
// so that the dashboard validates with the API's own schemas (watch-input.ts) and shows the API's
// own messages, next to the box they are about.

export type WatchFormValues = {
  name: string;
  niceClasses: string;
  designations: string;
  /** 'true' or 'false' (a select: an unchecked checkbox would not say "false"). */
  relatedClasses: string;
  scanCadence: string;
  logoUrl: string;
  logoSt13: string;
};

export type WatchFormField = keyof WatchFormValues;

export type WatchFormErrors = {
  form: string[];
  fields: Partial<Record<WatchFormField, string[]>>;
  /** A plan limit was hit: the page links to /pricing. */
  planLimit: 'cadence' | 'cap' | null;
};

export const NO_ERRORS: WatchFormErrors = { form: [], fields: {}, planLimit: null };

export function emptyValues(scanCadence: string): WatchFormValues {
  return {
    name: '',
    niceClasses: '',
    designations: '',
    relatedClasses: 'true',
    scanCadence,
    logoUrl: '',
    logoSt13: '',
  };
}

type WatchJson = {
  name: string;
  attributes: { niceClasses: number[]; designations: string[]; relatedClasses?: boolean };
  scanCadence: string;
  logoUrl: string | null;
  logoSt13: string | null;
};

export function valuesFromWatch(watch: WatchJson): WatchFormValues {
  return {
    name: watch.name,
    niceClasses: watch.attributes.niceClasses.join(', '),
    designations: watch.attributes.designations.join(', '),
    relatedClasses: watch.attributes.relatedClasses === false ? 'false' : 'true',
    scanCadence: watch.scanCadence,
    logoUrl: watch.logoUrl ?? '',
    logoSt13: watch.logoSt13 ?? '',
  };
}

export function valuesFromBody(body: unknown): WatchFormValues {
  return {
    name: formField(body, 'name'),
    niceClasses: formField(body, 'niceClasses'),
    designations: formField(body, 'designations'),
    relatedClasses: formField(body, 'relatedClasses'),
    scanCadence: formField(body, 'scanCadence'),
    logoUrl: formField(body, 'logoUrl').trim(),
    logoSt13: formField(body, 'logoSt13').trim(),
  };
}

/** "9, 42; 35" → ["9", "42", "35"]: commas, semicolons or spaces separate entries. */
export function splitList(text: string): string[] {
  return text.split(/[\s,;]+/).filter((token) => token !== '');
}

// A token that looks like a number is sent as one, anything else as the text typed, so the
// schema answers exactly what the API would answer for the same JSON.
const toNumberIfNumeric = (token: string): number | string =>
  /^[+-]?\d+(\.\d+)?$/.test(token) ? Number(token) : token;

function attributesFrom(values: WatchFormValues) {
  return {
    niceClasses: splitList(values.niceClasses).map(toNumberIfNumeric),
    designations: splitList(values.designations),
    // Absent from an older form: the API's default.
    ...(values.relatedClasses === '' ? {} : { relatedClasses: values.relatedClasses !== 'false' }),
  };
}

/** The POST /watches body the form stands for. */
export function createInputFrom(values: WatchFormValues): Record<string, unknown> {
  const input: Record<string, unknown> = {
    watchType: 'trademark',
    name: values.name,
    attributes: attributesFrom(values),
  };
  if (values.scanCadence !== '') input.scanCadence = values.scanCadence;
  return input;
}

/** The PATCH /watches/{id} body the edit form stands for (every field: the form shows all). */
export function updateInputFrom(values: WatchFormValues): Record<string, unknown> {
  return {
    name: values.name,
    attributes: attributesFrom(values),
    scanCadence: values.scanCadence,
    logoUrl: values.logoUrl === '' ? null : values.logoUrl,
    logoSt13: values.logoSt13 === '' ? null : values.logoSt13,
  };
}

// A Map: it is looked up by the paths of validation errors, which may be any key a client sent.
const FIELD_OF_PATH: ReadonlyMap<string, WatchFormField> = new Map([
  ['name', 'name'],
  ['attributes.niceClasses', 'niceClasses'],
  ['attributes.designations', 'designations'],
  ['attributes.relatedClasses', 'relatedClasses'],
  ['scanCadence', 'scanCadence'],
  ['logoUrl', 'logoUrl'],
  ['logoSt13', 'logoSt13'],
]);

/**
 * The API's validation details → messages per form field. An entry's error
 * (`attributes.niceClasses.2`) names the entry typed, since the box holds a whole list.
 */
export function errorsFromDetails(
  details: ValidationDetails,
  values: WatchFormValues,
): WatchFormErrors {
  const errors: WatchFormErrors = { form: [...details.formErrors], fields: {}, planLimit: null };
  const add = (field: WatchFormField, message: string) => {
    const list = errors.fields[field] ?? [];
    if (!list.includes(message)) list.push(message);
    errors.fields[field] = list;
  };
  for (const [path, messages] of Object.entries(details.fieldErrors)) {
    const match = /^(attributes\.(?:niceClasses|designations))\.(\d+)$/.exec(path);
    const field = FIELD_OF_PATH.get(match?.[1] ?? path);
    if (field === undefined) {
      errors.form.push(...messages.map((message) => `${path}: ${message}`));
      continue;
    }
    const entry = match ? splitList(values[field])[Number(match[2])] : undefined;
    for (const message of messages)
      add(field, entry === undefined ? message : `“${entry}”: ${message}`);
  }
  return errors;
}

export function hasErrors(errors: WatchFormErrors): boolean {
  return errors.form.length > 0 || Object.keys(errors.fields).length > 0;
}
