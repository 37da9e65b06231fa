import { randomUUID } from 'node:crypto';
import { normalizePermissions } from '../../domain/access';
import { team, type TeamCommand } from '../../domain/team/team';
import { findUser } from '../../projections/users';
import { runCommand } from '../../platform/commands/dispatch';
import { withEmailClaimed } from '../../commands/users';
import { hashPassword } from '../../platform/passwords';
import { DEMO_PASSWORD, DEMO_USERS, demoUserId } from './identity';
import type { Seeder } from './seeder';
import { demoCalendar } from './timeline';

interface DemoMember {
  email: string;
  fullName: string;
  owner: string; // e-mail of the owning partner or distributor
  permissions: readonly string[];
  state?: 'inactive' | 'invited';
  /** When the owner added (or invited) them, in days before today: after the owner's organisation was approved. */
  joinedDaysAgo: number;
}

/** The README's two team members (DEMO_USERS with a parent), then colleagues on several teams, in every state. */
export const DEMO_MEMBERS: readonly DemoMember[] = [
  ...DEMO_USERS.filter((demo) => demo.parent).map((demo) => ({
    email: demo.email,
    fullName: demo.fullName,
    owner: demo.parent!,
    permissions:
      demo.role === 'partner_user' ? ['Projects.Read', 'Orders.Track', 'Orders.Browse', 'Learning.Read'] : ['Orders.Track', 'Orders.Browse', 'Learning.Read'],
    joinedDaysAgo: demo.role === 'partner_user' ? 175 : 170,
  })),
  {
    email: 'aisha.khan@northwind.test',
    fullName: 'Aisha Khan',
    owner: 'partner@partnerhub.test',
    permissions: ['Projects.Read', 'Projects.Create', 'Support.Read', 'Support.Create', 'Learning.Read'],
    joinedDaysAgo: 150,
  },
  {
    email: 'marco.rossi@northwind.test',
    fullName: 'Marco Rossi',
    owner: 'partner@partnerhub.test',
    permissions: ['Orders.Browse', 'Orders.Checkout', 'Orders.Shipping'],
    state: 'inactive',
    joinedDaysAgo: 120,
  },
  {
    email: 'sofia.nunez@northwind.test',
    fullName: 'Sofia Nunez',
    owner: 'partner@partnerhub.test',
    permissions: ['Rebates.Read', 'Rebates.Create'],
    state: 'invited',
    joinedDaysAgo: 2,
  },
  {
    email: 'ivan.petrov@atlas-distribution.test',
    fullName: 'Ivan Petrov',
    owner: 'distributor@partnerhub.test',
    permissions: ['Orders.Read', 'Orders.Create', 'Orders.Shipping', 'Learning.Read'],
    joinedDaysAgo: 160,
  },
  {
    email: 'grace.liu@atlas-distribution.test',
    fullName: 'Grace Liu',
    owner: 'distributor@partnerhub.test',
    permissions: ['Support.Read'],
    state: 'inactive',
    joinedDaysAgo: 100,
  },
  {
    email: 'omar.farouk@atlas-distribution.test',
    fullName: 'Omar Farouk',
    owner: 'distributor@partnerhub.test',
    permissions: ['Orders.Track'],
    state: 'invited',
    joinedDaysAgo: 3,
  },
  {
    email: 'paulo.mendes@meridian-supply.test',
    fullName: 'Paulo Mendes',
    owner: 'olivia.brown@meridian-supply.test',
    permissions: ['Orders.Track', 'Orders.Browse'],
    joinedDaysAgo: 90,
  },
  {
    email: 'zawadi.mwangi@kilima-tech.test',
    fullName: 'Zawadi Mwangi',
    owner: 'amani.otieno@kilima-tech.test',
    permissions: ['Projects.Read', 'Orders.Track'],
    joinedDaysAgo: 50,
  },
];

/** Team members, added by their owners through the team's own commands. */
export const seedTeam: Seeder = {
  name: 'team members',
  async run(services, seedMetadata) {
    // With history, each member joins on their own day (the "Joined" dates and the team's history read months, not minutes).
    const calendar = demoCalendar(services, seedMetadata);
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    let created = 0;
    for (const demo of DEMO_MEMBERS) {
      const userId = demoUserId(demo.email);
      const owner = await findUser(services.pool, demoUserId(demo.owner));
      if (!owner || (await findUser(services.pool, userId))) continue;
      const metadata = calendar.historyDays > 0 ? calendar.at(Math.min(demo.joinedDaysAgo, calendar.historyDays), 14) : seedMetadata;
      const asOwner = { ...metadata, actorId: owner.id, actorRole: owner.role };
      const details = {
        owner: { id: owner.id, role: owner.role, permissions: normalizePermissions(owner.permissions), companyName: owner.company_name },
        userId,
        email: demo.email,
        fullName: demo.fullName,
        permissions: demo.permissions,
      };
      const command: TeamCommand =
        demo.state === 'invited'
          ? { type: 'InviteTeamMember', ...details, invitationId: randomUUID(), expiresAt: new Date(Date.parse(metadata.now) + 7 * 86_400_000).toISOString() }
          : { type: 'AddTeamMember', ...details, passwordHash, isActive: demo.state !== 'inactive' };
      await withEmailClaimed(services, demo.email, userId, asOwner, () => runCommand(services, team, userId, command, asOwner));
      created++;
    }
    return `${created} of ${DEMO_MEMBERS.length} demo team members created`;
  },
};
