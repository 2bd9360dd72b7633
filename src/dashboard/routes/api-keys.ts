import type { FastifyInstance } from 'fastify';
import { isScope } from '../../domain/api-keys.ts';
import { ApiError } from '../../domain/errors.ts';
import { TIER_LABEL } from '../../domain/plans.ts';
import {
  type DashboardServices,
  noticeFrom,
  requireViewer,
  seeOther,
  sendPage,
  sessionOf,
} from '../context.ts';
import { formField, formList } from '../form.ts';
import { apiKeysPage, DEFAULT_KEY_FORM, type KeyForm } from '../views/api-keys.ts';

const NAME_MAX = 100;

function validateKeyForm(form: KeyForm): KeyForm['errors'] {
  const errors: KeyForm['errors'] = {};
  const name = form.name.trim();
  if (name.length === 0) errors.name = ['Enter a name for the key.'];
  else if (name.length > NAME_MAX) errors.name = [`Use at most ${NAME_MAX} characters.`];
  const unknown = form.scopes.filter((scope) => !isScope(scope));
  if (unknown.length > 0) errors.scopes = [`Unknown scope: ${unknown.join(', ')}.`];
  else if (form.scopes.length === 0) errors.scopes = ['Choose at least one scope.'];
  return errors;
}

export function apiKeyRoutes(app: FastifyInstance, s: DashboardServices) {
  app.get('/api-keys', { config: { dashboard: 'user' } }, async (request, reply) => {
    const principal = sessionOf(request).principal;
    return sendPage(
      reply,
      apiKeysPage({
        viewer: await requireViewer(request, s.alerts),
        canMint: principal.plan.apiAccess,
        keys: await s.accounts.listKeys(principal.userId),
        form: DEFAULT_KEY_FORM,
        created: null,
        notice: noticeFrom(request.query),
      }),
    );
  });

  app.post('/api-keys', { config: { dashboard: 'user' } }, async (request, reply) => {
    const principal = sessionOf(request).principal;
    const viewer = await requireViewer(request, s.alerts);
    const form: KeyForm = {
      name: formField(request.body, 'name'),
      scopes: formList(request.body, 'scopes'),
      errors: {},
    };
    const page = async (status: number, extra: Partial<Parameters<typeof apiKeysPage>[0]>) =>
      sendPage(
        reply,
        apiKeysPage({
          viewer,
          canMint: principal.plan.apiAccess,
          keys: await s.accounts.listKeys(principal.userId),
          form,
          created: null,
          notice: null,
          ...extra,
        }),
        status,
      );

    // Keys are for the REST API, which only Team and Enterprise include.
    if (!principal.plan.apiAccess) {
      return page(403, {
        notice: {
          kind: 'error',
          message: `API keys are not part of the ${TIER_LABEL[principal.plan.tier]} plan; they come with Team and Enterprise.`,
        },
      });
    }
    form.errors = validateKeyForm(form);
    if (form.errors.name || form.errors.scopes) return page(422, {});
    try {
      const created = await s.accounts.createKey({
        userId: principal.userId,
        name: form.name,
        scopes: form.scopes,
      });
      request.log.info({ keyId: created.id }, 'API key created in the dashboard');
      // The only response that ever holds the plaintext: rendered here, never stored, never
      // redirected to (a reload asks before re-posting and would mint another key anyway).
      return page(201, {
        form: DEFAULT_KEY_FORM,
        created: { name: created.name, key: created.key },
      });
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'validation_error') {
        form.errors = { name: [error.message] };
        return page(422, {});
      }
      throw error;
    }
  });

  // Revocation without JavaScript: the same service call as DELETE /api/v1/api-keys/{id}.
  app.post<{ Params: { id: string } }>(
    '/api-keys/:id/revoke',
    { config: { dashboard: 'user' } },
    async (request, reply) => {
      const principal = sessionOf(request).principal;
      const key = await s.accounts.revokeKey(request.params.id, principal.userId);
      request.log.info({ keyId: key.id }, 'API key revoked in the dashboard');
      return seeOther(reply, '/api-keys?notice=key-revoked');
    },
  );
}
