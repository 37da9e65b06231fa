import { DEFAULT_PERMISSIONS_BY_ROLE, type Role } from '../../domain/access';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { registerUser } from '../../commands/users';
import { runCommand } from '../../platform/commands/dispatch';
import { users } from '../../domain/identity/users';
import { findUser } from '../../projections/users';
import { hashPassword } from '../../platform/passwords';
import type { Seeder } from './seeder';
import { demoCalendar } from './timeline';

export const DEMO_PASSWORD = 'Demo2026!';

interface DemoUser {
  email: string;
  fullName: string;
  role: Role;
  companyName: string | null;
  parent?: string; // e-mail of the parent account, for sub-users
  active?: boolean;
}

/** The demo accounts of the README, then a few colleagues so the user list looks like a working portal. */
export const DEMO_USERS: readonly DemoUser[] = [
  { email: 'admin@partnerhub.test', fullName: 'Alex Morgan', role: 'admin', companyName: 'PartnerHub' },
  { email: 'partner@partnerhub.test', fullName: 'Priya Shah', role: 'partner', companyName: 'Northwind Networks' },
  { email: 'distributor@partnerhub.test', fullName: 'Daniel Okafor', role: 'distributor', companyName: 'Atlas Distribution' },
  { email: 'manufacturer@partnerhub.test', fullName: 'Mei Chen', role: 'manufacturer', companyName: 'Helix Switching Ltd' },
  { email: 'support@partnerhub.test', fullName: 'Samuel Reyes', role: 'support', companyName: 'PartnerHub' },
  {
    email: 'partner.user@partnerhub.test',
    fullName: 'Lena Fischer',
    role: 'partner_user',
    companyName: 'Northwind Networks',
    parent: 'partner@partnerhub.test',
  },
  {
    email: 'distributor.user@partnerhub.test',
    fullName: 'Tom Becker',
    role: 'distributor_user',
    companyName: 'Atlas Distribution',
    parent: 'distributor@partnerhub.test',
  },
  { email: 'jordan.lee@partnerhub.test', fullName: 'Jordan Lee', role: 'support', companyName: 'PartnerHub' },
  { email: 'olivia.brown@meridian-supply.test', fullName: 'Olivia Brown', role: 'distributor', companyName: 'Meridian Supply Co.' },
  { email: 'hiro.tanaka@kaiju-components.test', fullName: 'Hiro Tanaka', role: 'manufacturer', companyName: 'Kaiju Components', active: false },
];

export const demoUserId = (email: string) => deterministicUuid(`demo-user:${email}`);

export const seedIdentity: Seeder = {
  name: 'demo accounts',
  async run(services, seedMetadata) {
    // The accounts exist from the day the demo world began.
    const metadata = demoCalendar(services, seedMetadata).founded();
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    let created = 0;
    // Team members are added by their owners (src/seed/team.ts).
    const accounts = DEMO_USERS.filter((demo) => !demo.parent);
    for (const demo of accounts) {
      const userId = demoUserId(demo.email);
      if (await findUser(services.pool, userId)) continue;
      await registerUser(
        services,
        {
          type: 'RegisterUser',
          userId,
          email: demo.email,
          fullName: demo.fullName,
          companyName: demo.companyName,
          role: demo.role,
          permissions: [...DEFAULT_PERMISSIONS_BY_ROLE[demo.role]],
          parentUserId: demo.parent ? demoUserId(demo.parent) : null,
          passwordHash,
          isActive: false,
          selfRegistered: false,
        },
        metadata,
      );
      // Activation is its own step, so each demo account's history shows how it became active.
      if (demo.active !== false) await runCommand(services, users, userId, { type: 'ActivateUser', reason: 'Demo account' }, metadata);
      created++;
    }
    return `${created} of ${accounts.length} demo accounts created`;
  },
};
