import { randomBytes } from 'node:crypto';
import { webhooks } from '../../domain/webhooks/webhooks';
import { findUser } from '../../projections/users';
import { newSigningSecret } from '../../workers/webhooks';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { demoUserId } from './identity';
import type { Seeder } from './seeder';

/**
 * Example endpoints, inactive, two per organisation: the demo has no system to receive deliveries, so they show the
 * screens (and give the authorization matrix records of two organisations) without sending anything.
 * Their secrets are random and never shown.
 */
const DEMO_ENDPOINTS = [
  {
    key: 'vendor-crm',
    owner: null,
    url: 'https://crm.partnerhub.example/hooks/partnerhub',
    eventTypes: ['partner.application_submitted', 'project.registered', 'lead.created'],
  },
  {
    key: 'northwind-erp',
    owner: 'partner@partnerhub.test',
    url: 'https://erp.northwind.example/partnerhub/webhooks',
    eventTypes: ['order.placed', 'order.status_changed', 'lead.assigned'],
  },
  {
    key: 'sakura-crm',
    owner: 'kenji.mori@sakura-netcom.test',
    url: 'https://crm.sakura-netcom.example/inbound/partnerhub',
    eventTypes: ['project.registered', 'project.registration_changed', 'lead.assigned', 'lead.status_changed'],
  },
  {
    key: 'atlas-erp',
    owner: 'distributor@partnerhub.test',
    url: 'https://erp.atlas-distribution.example/hooks',
    eventTypes: ['order.placed', 'order.status_changed'],
  },
  {
    key: 'northwind-helpdesk',
    owner: 'partner@partnerhub.test',
    url: 'https://helpdesk.northwind.example/partnerhub',
    eventTypes: ['ticket.opened', 'ticket.status_changed', 'ticket.replied'],
  },
  {
    key: 'sakura-finance',
    owner: 'kenji.mori@sakura-netcom.test',
    url: 'https://finance.sakura-netcom.example/partnerhub',
    eventTypes: ['rebate.submitted', 'rebate.status_changed', 'fund_claim.status_changed'],
  },
  {
    key: 'atlas-finance',
    owner: 'distributor@partnerhub.test',
    url: 'https://finance.atlas-distribution.example/partnerhub',
    eventTypes: ['rebate.status_changed'],
  },
] as const;

export const demoWebhookId = (key: string) => deterministicUuid(`demo-webhook:${key}`);

export const seedWebhooks: Seeder = {
  name: 'webhooks',
  async run(services, metadata) {
    let created = 0;
    for (const endpoint of DEMO_ENDPOINTS) {
      const endpointId = demoWebhookId(endpoint.key);
      if ((await services.store.readStream(webhooks.streamId(endpointId))).length) continue;
      let organisationId: string | null = null;
      let actor = { actorId: demoUserId('admin@partnerhub.test'), actorRole: 'admin' };
      if (endpoint.owner) {
        const owner = await findUser(services.pool, demoUserId(endpoint.owner));
        if (!owner?.is_active) continue;
        organisationId = owner.id;
        actor = { actorId: owner.id, actorRole: owner.role };
      }
      await runCommand(
        services,
        webhooks,
        endpointId,
        {
          type: 'RegisterWebhookEndpoint',
          endpointId,
          organisationId,
          url: endpoint.url,
          eventTypes: [...endpoint.eventTypes],
          active: false,
          secret: newSigningSecret(randomBytes),
          production: services.config.NODE_ENV === 'production',
        },
        { ...metadata, ...actor },
      );
      created++;
    }
    return `${created} example webhook endpoints (inactive)`;
  },
};
