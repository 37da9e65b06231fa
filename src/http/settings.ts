import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { settings, SETTINGS_MESSAGES, SUPPORT_CONTACT_SETTING } from '../../domain/settings/settings';
import { supportContact } from '../../projections/settings';
import { metadataFromRequest, runCommand } from '../commands/dispatch';
import type { Services } from '../services';
import { updateBody } from './records';

const contactBody = updateBody(
  { phone: z.string().max(40, 'Phone may have at most 40 characters.'), email: z.string().max(200), hours: z.string().max(200, 'Hours may have at most 200 characters.') },
  ['updated_at'],
).meta({ example: { phone: '+1 800 555 0199', email: 'support@partnerhub.test', hours: 'Monday to Friday, 8:00–18:00 CET' } });

/** Settings administrators change in System Settings; the support contact is read by the Support Center. */
export async function settingsRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/settings/support-contact', { schema: { tags: ['settings'], summary: "The support team's phone, e-mail and hours" } }, async () => {
    return { success: true, data: await supportContact(services.pool) };
  });

  app.put('/settings/support-contact', { schema: { tags: ['settings'], summary: "Change the support team's phone, e-mail and hours (administrators)", body: contactBody } }, async (request) => {
    await runCommand(services, settings, SUPPORT_CONTACT_SETTING, { type: 'ChangeSupportContact', ...request.body }, metadataFromRequest(request));
    return { success: true, message: SETTINGS_MESSAGES.saved, data: await supportContact(services.pool) };
  });
}
