import type { CommandMetadata } from '../../domain/decider';
import { tickets, type TicketCommand } from '../../domain/tickets/tickets';
import { findUser } from '../../projections/users';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { openTicket } from '../../commands/tickets';
import { demoUserId } from './identity';
import { demoOrderId } from './orders';
import { findUnit } from '../../projections/warranty';
import type { Seeder } from './seeder';
import type { DemoTicket, Step } from './demoTicket';
import { historyTickets } from './historyTickets';

const HOUR_MS = 60 * 60 * 1000;

const SAM = 'support@partnerhub.test';
const JORDAN = 'jordan.lee@partnerhub.test';
const PRIYA = 'partner@partnerhub.test';
const LENA = 'partner.user@partnerhub.test';
const DANIEL = 'distributor@partnerhub.test';
const OLIVIA = 'olivia.brown@meridian-supply.test';
const ALEX = 'admin@partnerhub.test';

/** Tickets of three organisations in every status and priority; the old open ones become overdue once the worker runs. */
export const DEMO_TICKETS: readonly DemoTicket[] = [
  {
    key: 'northwind-reboots',
    openedBy: PRIYA,
    hoursAgo: 30,
    title: 'HX-M2424 reboots every night at 02:00',
    description: 'Since the upgrade to firmware 4.2.0 two of our HX-M2424 switches reboot every night at 02:00. The log shows a watchdog reset.',
    priority: 'Critical',
    category: 'Bug Report',
    tags: 'firmware, hx-m2424, reboot',
    initialComment: 'Site: Seattle campus, building A. We can give remote access on request.',
    steps: [
      { hoursAgo: 29, by: SAM, assign: JORDAN, comment: 'Jordan has seen this watchdog reset before.' },
      { hoursAgo: 28, by: JORDAN, status: 'In Progress', comment: 'Thanks, we are looking into the watchdog reset.' },
      { hoursAgo: 27, by: JORDAN, note: 'Matches known issue HX-311 (scheduled backup job leaks memory). Fix planned for 4.2.1.' },
      { hoursAgo: 20, by: PRIYA, reply: 'It happened again last night on a third switch.' },
    ],
  },
  {
    key: 'northwind-poe-budget',
    openedBy: LENA,
    hoursAgo: 100,
    title: 'PoE budget lower than the datasheet says',
    description: 'The HX-U108P reports a PoE budget of 110 W, the datasheet says 124 W.',
    priority: 'High',
    category: 'Technical',
    tags: 'poe, hx-u108p',
    steps: [{ hoursAgo: 99, by: SAM, assign: SAM }],
  },
  {
    key: 'northwind-invoice',
    openedBy: PRIYA,
    hoursAgo: 14 * 24,
    title: 'Invoice INV-2026-0412 charged twice',
    description: 'Our October invoice INV-2026-0412 was debited twice from our account.',
    priority: 'Medium',
    category: 'Billing',
    tags: 'invoice',
    steps: [
      { hoursAgo: 13 * 24, by: ALEX, assign: ALEX },
      { hoursAgo: 13 * 24 - 2, by: ALEX, note: 'Finance confirmed the double debit; refund batch on Friday.' },
      {
        hoursAgo: 12 * 24,
        by: ALEX,
        status: 'Resolved',
        comment: 'The second debit has been refunded; you will see it within 3 business days.',
        resolution: 'Refunded the duplicate debit.',
      },
      { hoursAgo: 10 * 24, by: ALEX, status: 'Closed', comment: 'Closing after the refund was confirmed by phone.' },
    ],
  },
  {
    key: 'northwind-vlan-feature',
    openedBy: PRIYA,
    hoursAgo: 5,
    title: 'Per-port VLAN templates in the web UI',
    description: 'Please add VLAN templates we can apply to several ports at once in the switch web UI.',
    priority: 'Low',
    category: 'Feature Request',
    tags: 'web-ui, vlan',
    steps: [],
  },
  {
    key: 'atlas-sfp-compat',
    openedBy: DANIEL,
    hoursAgo: 6 * 24,
    title: 'SFP-10G-SR not recognised in XS-4800 port 48',
    description: 'Port 48 of two XS-4800 units does not recognise our SFP-10G-SR modules; ports 1-47 do.',
    priority: 'High',
    category: 'Technical',
    tags: 'sfp, xs-4800',
    initialComment: 'Serial numbers of the affected units are in the delivery note of order atlas-1.',
    steps: [
      { hoursAgo: 6 * 24 - 1, by: SAM, assign: JORDAN },
      { hoursAgo: 5 * 24, by: JORDAN, note: 'Port 48 is the stacking port on early XS-4800 batches: needs the stacking mode switched off.' },
      {
        hoursAgo: 5 * 24 - 1,
        by: JORDAN,
        status: 'Resolved',
        comment: 'Port 48 is in stacking mode by default. Run `no stack-port 48` and the module is recognised.',
        resolution: 'Configuration: stacking port.',
      },
    ],
  },
  {
    key: 'atlas-portal-access',
    openedBy: DANIEL,
    hoursAgo: 4 * 24,
    title: 'Team member cannot see orders',
    description: 'Tom Becker in our team cannot see our orders in the portal.',
    priority: 'Medium',
    category: 'General',
    tags: 'portal, permissions',
    steps: [
      { hoursAgo: 4 * 24 - 3, by: SAM, status: 'In Progress', comment: 'Checking the permissions of the account.', internal: false },
      { hoursAgo: 4 * 24 - 4, by: SAM, note: 'Tom has Orders.Track only; the distributor must grant Orders.Read from Team Management.' },
    ],
  },
  {
    key: 'atlas-firmware-question',
    openedBy: DANIEL,
    hoursAgo: 20 * 24,
    title: 'Where are the firmware release notes?',
    description: 'We cannot find the release notes of firmware 4.1.',
    priority: 'Low',
    category: 'General',
    tags: 'firmware',
    steps: [
      { hoursAgo: 20 * 24 - 5, by: SAM, status: 'Resolved', comment: 'They are in the Downloads tab of the Support Center.' },
      { hoursAgo: 18 * 24, by: SAM, status: 'Closed' },
    ],
  },
  {
    key: 'meridian-rack-kit',
    openedBy: OLIVIA,
    hoursAgo: 2,
    title: 'Rack mounting kit missing from delivery',
    description: 'The delivery of three IMS-810 units came without the rack mounting kits.',
    priority: 'Medium',
    category: 'General',
    tags: 'delivery, ims-810',
    steps: [],
  },
];

export const demoTicketId = (key: string) => deterministicUuid(`demo-ticket:${key}`);

const commentId = (ticketKey: string, index: number) => deterministicUuid(`demo-ticket:${ticketKey}:step:${index}`);

function stepCommand(step: Step, key: string, index: number): TicketCommand {
  if ('reply' in step) return { type: 'AddComment', commentId: commentId(key, index), comment: step.reply, isInternal: false };
  if ('note' in step) return { type: 'AddComment', commentId: commentId(key, index), comment: step.note, isInternal: true };
  if ('status' in step) {
    return {
      type: 'ChangeTicketStatus',
      status: step.status,
      comment: step.comment ? { commentId: commentId(key, index), comment: step.comment, isInternal: step.internal ?? false } : null,
      resolutionNotes: step.resolution ?? null,
    };
  }
  return {
    type: 'AssignTicket',
    assignee: { id: demoUserId(step.assign), role: step.assign === ALEX ? 'admin' : 'support' },
    comment: step.comment ? { commentId: commentId(key, index), comment: step.comment } : null,
  };
}

export const seedTickets: Seeder = {
  name: 'tickets',
  async run(services, metadata) {
    const now = Date.parse(metadata.now);
    const at = (hoursAgo: number, actor: { id: string; role: string }): CommandMetadata => ({
      ...metadata,
      now: new Date(now - hoursAgo * HOUR_MS).toISOString(),
      actorId: actor.id,
      actorRole: actor.role,
    });
    let created = 0;
    // Oldest first, so the ticket numbers follow the dates.
    const all = [...historyTickets(services, metadata), ...DEMO_TICKETS];
    for (const demo of all.sort((a, b) => b.hoursAgo - a.hoursAgo)) {
      const opener = await findUser(services.pool, demoUserId(demo.openedBy));
      if (!opener) continue;
      const organisationId = opener.parent_user_id ?? opener.id;
      const organisation = organisationId === opener.id ? opener : await findUser(services.pool, organisationId);
      const ticketId = demoTicketId(demo.key);
      const opened = await openTicket(
        services,
        {
          ticketId,
          organisationId,
          companyName: organisation?.company_name ?? null,
          title: demo.title,
          description: demo.description,
          priority: demo.priority,
          category: demo.category,
          tags: demo.tags,
          initialComment: demo.initialComment ? { commentId: commentId(demo.key, -1), comment: demo.initialComment } : null,
          attachments: [],
        },
        at(demo.hoursAgo, opener),
      );
      if (!opened.created) continue;
      for (const [index, step] of demo.steps.entries()) {
        const actor = await findUser(services.pool, demoUserId(step.by));
        if (!actor) continue;
        await runCommand(services, tickets, ticketId, stepCommand(step, demo.key, index), at(step.hoursAgo, actor));
      }
      created++;
    }
    created += await seedReturn(services, at);
    return `${created} of ${all.length + 1} demo tickets created`;
  },
};

/** One return: a unit of Northwind's delivered campus order, opened a day ago and being worked. */
async function seedReturn(
  services: Parameters<Seeder['run']>[0],
  at: (hoursAgo: number, actor: { id: string; role: string }) => CommandMetadata,
): Promise<number> {
  const ticketId = demoTicketId('northwind-rma');
  if ((await services.store.readStream(tickets.streamId(ticketId))).length) return 0;
  const opener = await findUser(services.pool, demoUserId(PRIYA));
  const { rows } = await services.pool.query<{ serial_number: string }>(
    'SELECT serial_number FROM read.order_units WHERE order_id = $1 ORDER BY serial_number LIMIT 1',
    [demoOrderId('northwind-1')],
  );
  const unit = rows[0] && (await findUnit(services.pool, rows[0].serial_number, undefined));
  if (!opener || !unit || !unit.under_warranty) return 0;
  await openTicket(
    services,
    {
      ticketId,
      organisationId: opener.id,
      companyName: opener.company_name,
      title: `RMA: ${unit.product_name} ${unit.serial_number}`,
      description: 'Two ports stopped linking after a power cut; the unit fails its self-test.',
      priority: 'High',
      attachments: [],
      rma: { serialNumber: unit.serial_number, orderId: unit.order_id, orderNumber: unit.order_number, productName: unit.product_name, underWarranty: true },
    },
    at(26, opener),
  );
  const sam = await findUser(services.pool, demoUserId(SAM));
  if (sam) {
    await runCommand(services, tickets, ticketId, { type: 'AssignTicket', assignee: { id: sam.id, role: sam.role }, comment: null }, at(25, sam));
    await runCommand(
      services,
      tickets,
      ticketId,
      {
        type: 'ChangeTicketStatus',
        status: 'In Progress',
        comment: {
          commentId: commentId('northwind-rma', 0),
          comment: 'RMA approved: a replacement ships today, please return the faulty unit within 30 days.',
          isInternal: false,
        },
      },
      at(24, sam),
    );
    await runCommand(
      services,
      tickets,
      ticketId,
      {
        type: 'AddComment',
        commentId: commentId('northwind-rma', 1),
        comment: 'Replacement taken from the Rotterdam stock; credit note once the unit is back.',
        isInternal: true,
      },
      at(24, sam),
    );
  }
  return 1;
}
