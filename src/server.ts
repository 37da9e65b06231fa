import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { answerWriter } from './http/answerWriter';
import { authRoutes } from './http/auth';
import { mfaRoutes } from './http/mfa';
import { oidcRoutes } from './http/oidc';
import { healthRoutes } from './http/health';
import { dashboardRoutes } from './http/dashboards';
import { jobRoutes } from './http/jobs';
import { notificationRoutes } from './http/notifications';
import { AnswerCache } from './http/answerCache';
import { orderRoutes } from './http/orders';
import { ticketRoutes } from './http/tickets';
import { resourceRoutes } from './http/resources';
import { settingsRoutes } from './http/settings';
import { governanceRoutes } from './http/governance';
import { partnerRoutes } from './http/partners';
import { productRoutes } from './http/products';
import { projectRoutes } from './http/projects';
import { projectMilestoneRoutes } from './http/projectMilestones';
import { projectOrderRoutes } from './http/projectOrders';
import { projectRegistrationRoutes } from './http/projectRegistrations';
import { projectTeamRoutes } from './http/projectTeam';
import { rebateRoutes } from './http/rebates';
import { leadRoutes } from './http/leads';
import { fundRoutes } from './http/funds';
import { learningRoutes } from './http/learning';
import { programmeRoutes } from './http/programme';
import { scorecardRoutes } from './http/scorecards';
import { webhookRoutes } from './http/webhooks';
import { teamRoutes } from './http/team';
import { userRoutes } from './http/users';
import { auditRoutes } from './http/audit';
import { activityRoutes } from './http/activity';
import { installValidationMessages } from './http/validation';
import { API_PREFIX, enforceApiAccess, type ApiRouteInfo } from './plugins/access';
import { documentApiKeyScopes, refuseUnscopedRoutesWithApiKeys } from './plugins/apiKeys';
import { apiKeyRoutes } from './http/apiKeys';
import { followWrites } from '../platform/commands/dispatch';
import { registerAuth } from './plugins/auth';
import { answerFrameworkError, registerErrorHandling } from './plugins/errors';
import { SessionStore } from './plugins/sessions';
import { signInSteps } from './plugins/signIn';
import { registerApiRateLimit, registerProtection } from './plugins/protection';
import { refuseUnstorableText } from './plugins/text';
import { parseJsonWithinDepth } from './plugins/jsonBody';
import { registerUploads } from './plugins/uploads';
import type { Services } from '../platform/services';

export interface AppOptions {
  logger?: boolean | object;
  /** Extra route plugins (the web bundle, module routes added by later issues). */
  plugins?: Array<(app: FastifyInstance) => Promise<void>>;
}

/** The API: every route under /api, documented at /api/docs. Exported for tests, which call it with app.inject(). */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  installValidationMessages();
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: services.config.TRUST_PROXY,
    genReqId: () => crypto.randomUUID(),
    // Addresses the router cannot read (bad percent-encoding, a parameter too long) answer in the envelope too.
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerWriter(services.config.NODE_ENV === 'test'));
  registerErrorHandling(app);
  // JSON (and multipart where a route registers it) only: anything else is answered 415.
  app.removeContentTypeParser('text/plain');
  parseJsonWithinDepth(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'PartnerHub API', version: '1.0.0', description: 'Partner-channel portal API. Conventions: docs/api.md.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // Also accepted as `Authorization: Bearer phk_…`; each route's x-required-scopes names the scopes that allow it.
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Api-Key',
            description: 'An API key (phk_…) made in System Settings or on an organisation’s API keys page. Scopes: docs/integrations.md.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await registerProtection(app, services);
  await registerAuth(app, services);
  await registerUploads(app, services);
  const sessions = new SessionStore(services.pool, services.config.REFRESH_TOKEN_TTL_SECONDS);
  const answers = new AnswerCache(services.watcher, services.config.ANSWER_CACHE_ENTRIES);

  app.decorate('apiRoutes', [] as ApiRouteInfo[]);
  await app.register(
    async (api) => {
      // Counted first: every request, whatever becomes of it, before its body is read.
      await registerApiRateLimit(api, services);
      // Each request follows what its commands wrote, so a creation the read models are late for is answered 202.
      api.addHook('preHandler', (_request, _reply, done) => followWrites(done));
      enforceApiAccess(api, app.apiRoutes);
      documentApiKeyScopes(api);
      refuseUnscopedRoutesWithApiKeys(api);
      refuseUnstorableText(api);
      await healthRoutes(api, services);
      const signIn = signInSteps(api, services, sessions);
      await authRoutes(api, services, sessions, signIn);
      await mfaRoutes(api, services, signIn);
      await oidcRoutes(api, services, signIn);
      await userRoutes(api, services, sessions, answers);
      await notificationRoutes(api, services);
      await jobRoutes(api, services);
      await productRoutes(api, services);
      await orderRoutes(api, services, answers);
      await partnerRoutes(api, services);
      await ticketRoutes(api, services);
      await resourceRoutes(api, services);
      await settingsRoutes(api, services);
      await governanceRoutes(api, services);
      await projectRoutes(api, services);
      await projectRegistrationRoutes(api, services);
      await projectTeamRoutes(api, services);
      await projectOrderRoutes(api, services);
      await projectMilestoneRoutes(api, services);
      await rebateRoutes(api, services);
      await leadRoutes(api, services);
      await fundRoutes(api, services);
      await learningRoutes(api, services);
      await programmeRoutes(api, services);
      await scorecardRoutes(api, services);
      await webhookRoutes(api, services);
      await apiKeyRoutes(api, services);
      await teamRoutes(api, services, sessions);
      await dashboardRoutes(api, services);
      await auditRoutes(api, services);
      await activityRoutes(api, services);
    },
    { prefix: API_PREFIX },
  );
  for (const plugin of options.plugins ?? []) await plugin(app);
  return app;
}
