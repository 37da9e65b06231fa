import type { Services } from '../../platform/services';
import type { CommandMetadata } from '../../domain/decider';
import { between, demoCalendar, pick, randomFor } from './timeline';
import type { DemoTicket } from './demoTicket';

const SAM = 'support@partnerhub.test';
const JORDAN = 'jordan.lee@partnerhub.test';

/** Who opens tickets over the months, and from how many days ago they could (their organisation's approval). */
const OPENERS: ReadonlyArray<readonly [email: string, sinceDaysAgo: number]> = [
  ['partner@partnerhub.test', 180],
  ['partner.user@partnerhub.test', 120],
  ['distributor@partnerhub.test', 190],
  ['olivia.brown@meridian-supply.test', 170],
  ['lucia.fernandez@pampas-digital.test', 145],
  ['kenji.mori@sakura-netcom.test', 105],
];

/** What partners ask support about: title, description, category, priority, tags, support's answer, the resolution. */
const TOPICS = [
  [
    'Firmware upgrade path from 3.8 to 4.2',
    'Can we go straight from 3.8.4 to 4.2.0 on the HX-M2424, or is there an intermediate release?',
    'Technical',
    'Medium',
    'firmware, upgrade',
    'You can go straight to 4.2.0; save the configuration first.',
    'Answered: direct upgrade supported.',
  ],
  [
    'Delivery arrived with a damaged carton',
    'One of the cartons of our last delivery was crushed. The switch inside looks fine. Should we worry?',
    'General',
    'Low',
    'delivery',
    'Please run the self-test; if it passes the unit is covered as usual.',
    'Self-test passed, no replacement needed.',
  ],
  [
    'VLAN trunk drops after 24 hours',
    'Trunk ports between two IMS-810 units stop passing VLAN 30 after about a day.',
    'Bug Report',
    'High',
    'vlan, ims-810',
    'This is fixed in 2.1.3; the upgrade is on the downloads page.',
    'Fixed by firmware 2.1.3.',
  ],
  [
    'Invoice shows the wrong VAT number',
    'The invoice for our last order carries our old VAT number.',
    'Billing',
    'Medium',
    'invoice, vat',
    'We corrected your billing profile and reissued the invoice.',
    'Invoice reissued.',
  ],
  [
    'Request: export of serial numbers per order',
    'It would help our asset management if we could export the serial numbers of an order.',
    'Feature Request',
    'Low',
    'serials, export',
    'Thanks, we passed this to the product team.',
    'Logged with the product team.',
  ],
  [
    'SFP+ modules not recognised',
    'Third-party SFP+ modules show "unsupported transceiver" on the XS-4800.',
    'Technical',
    'High',
    'sfp, xs-4800',
    'Enable third-party optics with "transceiver permit all"; supported modules are listed in the guide.',
    'Configuration change solved it.',
  ],
  [
    'PoE camera keeps power cycling',
    'A PTZ camera on the HX-M2448P power-cycles every few minutes.',
    'Technical',
    'Medium',
    'poe, hx-m2448p',
    'The port is set to 802.3af; set it to 802.3at for PTZ cameras.',
    'Port class changed to 802.3at.',
  ],
  [
    'Access to the partner training portal',
    'Two of our engineers cannot sign in to the training videos.',
    'General',
    'Low',
    'training, access',
    'Their accounts were not activated yet; done now.',
    'Accounts activated.',
  ],
  [
    'Fan noise on XS-6400 after upgrade',
    'The fans run at full speed since the last upgrade.',
    'Bug Report',
    'Critical',
    'fans, xs-6400',
    'A sensor calibration bug; the hotfix 5.0.2 resolves it.',
    'Hotfix 5.0.2 installed.',
  ],
  [
    'Payment terms for the next quarter',
    'Could we move to 45-day payment terms from next quarter?',
    'Billing',
    'Low',
    'payment terms',
    'Approved by finance from the first of next month.',
    'Terms updated.',
  ],
] as const;

/**
 * Tickets opened and resolved over the months of history: about three a month, each assigned, answered
 * and resolved within days, most of them closed by the partner afterwards.
 */
export function historyTickets(services: Pick<Services, 'config'>, metadata: CommandMetadata): DemoTicket[] {
  const calendar = demoCalendar(services, metadata);
  if (calendar.historyDays < 30) return [];
  const random = randomFor('history-tickets');
  const tickets: DemoTicket[] = [];
  for (let daysAgo = calendar.historyDays - 5, index = 0; daysAgo > 21; daysAgo -= between(random, 6, 14), index++) {
    const openers = OPENERS.filter(([, since]) => since >= daysAgo);
    if (!openers.length) continue;
    const [email] = pick(random, openers);
    const [title, description, category, priority, tags, answer, resolution] = pick(random, TOPICS);
    const agent = random() < 0.6 ? SAM : JORDAN;
    const opened = daysAgo * 24 - between(random, 0, 8);
    const answered = opened - between(random, 2, 20);
    const resolved = answered - between(random, 4, 60);
    tickets.push({
      key: `history-${index}`,
      openedBy: email,
      hoursAgo: opened,
      title,
      description,
      priority,
      category,
      tags,
      steps: [
        { hoursAgo: opened - 1, by: SAM, assign: agent },
        { hoursAgo: answered, by: agent, status: 'In Progress', comment: answer },
        { hoursAgo: resolved, by: agent, status: 'Resolved', resolution },
        ...(random() < 0.7 ? [{ hoursAgo: resolved - between(random, 6, 48), by: email, status: 'Closed' as const }] : []),
      ],
    });
  }
  return tickets;
}
