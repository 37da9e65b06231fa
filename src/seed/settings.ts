import { settings, SUPPORT_CONTACT_SETTING } from '../../domain/settings/settings';
import { runCommand } from '../../platform/commands/dispatch';
import type { Seeder } from './seeder';

/** The support contact the Support Center shows until an administrator changes it. */
export const seedSettings: Seeder = {
  name: 'settings',
  async run(services, metadata) {
    if ((await services.store.readStream(settings.streamId(SUPPORT_CONTACT_SETTING))).length) return 'support contact already set';
    await runCommand(
      services,
      settings,
      SUPPORT_CONTACT_SETTING,
      {
        type: 'ChangeSupportContact',
        phone: '+1 800 555 0199',
        email: 'support@partnerhub.test',
        hours: 'Monday to Friday, 8:00–18:00 CET; Critical tickets around the clock',
      },
      metadata,
    );
    return 'support contact set';
  },
};
