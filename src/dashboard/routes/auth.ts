import type { FastifyInstance } from 'fastify';
import { csrfTokenFor, looksLikeSecret, newSecret } from '../../domain/sessions.ts';
import {
  clearCookie,
  PRESESSION_COOKIE,
  readCookie,
  SESSION_COOKIE,
  setCookie,
} from '../../http/cookies.ts';
import {
  type DashboardServices,
  noticeFrom,
  queryParam,
  safeNext,
  seeOther,
  sendPage,
} from '../context.ts';
import { formField } from '../form.ts';
import { signInPage } from '../views/sign-in.ts';

// Long enough to fill in the form after a coffee; the form just starts over after it.
const PRESESSION_MAX_AGE_SECONDS = 2 * 60 * 60;

export function authRoutes(app: FastifyInstance, s: DashboardServices) {
  app.get('/sign-in', { config: { dashboard: 'anyone' } }, async (request, reply) => {
    const next = safeNext(queryParam(request.query, 'next'));
    if (request.dashboardSession) return seeOther(reply, next ?? '/');
    // The sign-in form has no session yet: its CSRF token comes from this cookie's secret.
    let presession = readCookie(request, PRESESSION_COOKIE);
    if (!looksLikeSecret(presession)) {
      presession = newSecret();
      setCookie(request, reply, PRESESSION_COOKIE, presession, PRESESSION_MAX_AGE_SECONDS);
    }
    return sendPage(
      reply,
      signInPage({
        csrfToken: csrfTokenFor(presession),
        email: '',
        next,
        notice: noticeFrom(request.query),
      }),
    );
  });

  app.post(
    '/sign-in',
    { config: { dashboard: 'anyone', csrf: 'sign-in' } },
    async (request, reply) => {
      const email = formField(request.body, 'email');
      const password = formField(request.body, 'password');
      const next = safeNext(formField(request.body, 'next'));
      const presession = readCookie(request, PRESESSION_COOKIE) ?? '';
      const again = (status: number, message: string) =>
        sendPage(
          reply,
          signInPage({
            csrfToken: csrfTokenFor(presession),
            email,
            next,
            notice: { kind: 'error', message },
          }),
          status,
        );

      const result = await s.signIn.signIn({ email, password, address: request.ip });
      if (!result.ok && result.reason === 'throttled') {
        // Info, not warn: a guesser's every refused attempt would otherwise flood the warnings.
        request.log.info(
          { retryAfterSeconds: result.retryAfterSeconds },
          'dashboard sign-in throttled',
        );
        const seconds = result.retryAfterSeconds;
        const minutes = Math.ceil(seconds / 60);
        const wait =
          seconds < 60
            ? `${seconds} second${seconds === 1 ? '' : 's'}`
            : `${minutes} minute${minutes === 1 ? '' : 's'}`;
        reply.header('retry-after', String(seconds));
        return again(429, `Too many failed sign-in attempts. Try again in ${wait}.`);
      }
      if (!result.ok) {
        // Never which of the two was wrong: that would tell a guesser which e-mails have accounts.
        return again(401, 'The e-mail address or password is incorrect.');
      }
      // A new session, never the one the browser came with: a token planted before sign-in
      // (session fixation) is worthless afterwards.
      await s.sessions.end(readCookie(request, SESSION_COOKIE));
      const session = await s.sessions.start(result.userId);
      setCookie(request, reply, SESSION_COOKIE, session.token, session.maxAgeSeconds);
      clearCookie(request, reply, PRESESSION_COOKIE);
      request.log.info({ userId: result.userId }, 'dashboard sign-in');
      return seeOther(reply, next ?? '/');
    },
  );

  app.post('/sign-out', { config: { dashboard: 'user' } }, async (request, reply) => {
    await s.sessions.end(readCookie(request, SESSION_COOKIE));
    clearCookie(request, reply, SESSION_COOKIE);
    return seeOther(reply, '/sign-in?notice=signed-out');
  });
}
