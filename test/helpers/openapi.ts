import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

type OpenApiDoc = {
  paths: Record<
    string,
    Record<
      string,
      { responses?: Record<string, { content?: Record<string, { schema: unknown }> }> }
    >
  >;
  components?: { schemas?: Record<string, unknown> };
};

/**
 * Checks responses against the OpenAPI document the server publishes: every response a test sees
 * must match the schema documented for its route and status.
 */
export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly cache = new Map<string, ValidateFunction | null>();
  readonly checked: string[] = [];

  constructor(private readonly doc: OpenApiDoc) {
    this.ajv.addSchema({ $id: 'openapi', components: doc.components ?? {} });
  }

  /** Path template of the document that matches a concrete path, e.g. /api/v1/watches/{id}. */
  private template(path: string): string | undefined {
    return Object.keys(this.doc.paths).find((template) => {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return pattern.test(path);
    });
  }

  validator(method: string, path: string, status: number): ValidateFunction | null | undefined {
    const template = this.template(path);
    if (!template) return undefined;
    const key = `${method} ${template} ${status}`;
    if (!this.cache.has(key)) {
      const operation = this.doc.paths[template]?.[method.toLowerCase()];
      if (!operation) return undefined; // 405 territory: the tests check those directly
      const schema = operation?.responses?.[String(status)]?.content?.['application/json']?.schema;
      if (!schema) {
        this.cache.set(key, null);
      } else {
        const rewritten = JSON.parse(
          JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'),
        );
        this.cache.set(key, this.ajv.compile(rewritten));
      }
    }
    return this.cache.get(key);
  }

  /** Throws when a documented API route answers with a status or body its document does not describe. */
  check(method: string, path: string, status: number, body: unknown) {
    const validate = this.validator(method, path, status);
    if (validate === undefined) return; // not an API route of the document (e.g. /healthz)
    if (validate === null) {
      throw new Error(
        `${method} ${path} answered ${status}, which its OpenAPI operation does not document`,
      );
    }
    if (!validate(body)) {
      throw new Error(
        `${method} ${path} ${status} does not match its OpenAPI schema: ${this.ajv.errorsText(validate.errors)}`,
      );
    }
    this.checked.push(`${method} ${status}`);
  }
}
