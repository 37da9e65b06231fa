import type { CommandMetadata } from '../../domain/decider';
import type { Services } from '../../platform/services';
import type { DemoProject } from './demoProject';
import { between, demoCalendar, randomFor } from './timeline';

const NORTHWIND = 'partner@partnerhub.test';
const PAMPAS = 'lucia.fernandez@pampas-digital.test';
const SAKURA = 'kenji.mori@sakura-netcom.test';

/** Deals of the months before the recent demo projects: customer, place, what they needed, value, stage. */
const DEALS = [
  [NORTHWIND, 'Riverside Medical Centre wired refresh', 'Riverside Medical Centre', 'Portland, OR', 'United States', 96_400],
  [NORTHWIND, 'Bellevue City Library public Wi-Fi', 'Bellevue City Library', 'Bellevue, WA', 'United States', 38_900],
  [PAMPAS, 'Mendoza winery cellar sensors network', 'Bodegas Altamira', 'Mendoza', 'Argentina', 54_300],
  [NORTHWIND, 'Evergreen Logistics warehouse backbone', 'Evergreen Logistics', 'Tacoma, WA', 'United States', 171_000],
  [PAMPAS, 'Rosario port terminal OT switching', 'Terminal Puerto Rosario', 'Rosario', 'Argentina', 128_750],
  [SAKURA, 'Kobe steelworks industrial ring', 'Kobe Special Steel', 'Kobe', 'Japan', 212_000],
  [NORTHWIND, 'Summit Hotels guest network', 'Summit Hotels Group', 'Spokane, WA', 'United States', 64_200],
  [SAKURA, 'Nagoya logistics hub PoE cameras', 'Chubu Freight', 'Nagoya', 'Japan', 47_800],
  [PAMPAS, 'Córdoba university data centre', 'Universidad Nacional de Córdoba', 'Córdoba', 'Argentina', 305_000],
] as const;

/** When each owner could register (its approval), so no deal predates its partner. */
const SINCE: Record<string, number> = { [NORTHWIND]: 180, [PAMPAS]: 145, [SAKURA]: 105 };

/**
 * Deal registrations across the months of history: most approved and carried to completion, one
 * extended on request, some left to lapse (the worker's sweep expires them), one declined.
 */
export function historyProjects(services: Pick<Services, 'config'>, metadata: CommandMetadata): DemoProject[] {
  const calendar = demoCalendar(services, metadata);
  if (calendar.historyDays < 90) return [];
  const random = randomFor('history-projects');
  const span = Math.min(calendar.historyDays, 175) - 70;
  return DEALS.flatMap(([owner, title, customer, location, country, value], index): DemoProject[] => {
    const submittedDaysAgo = Math.min(SINCE[owner] - 3, 70 + Math.round(span * (1 - index / DEALS.length)) - between(random, 0, 5));
    if (submittedDaysAgo < 65) return [];
    const outcome = index % 4; // 0, 1: approved and completed; 2: approved and extended, still running; 3: lapsed or declined
    const base: DemoProject = {
      key: `history-${index}`,
      owner,
      submittedDaysAgo,
      closesInDays: -submittedDaysAgo + between(random, 45, 110),
      details: {
        title,
        end_user_customer_name: customer,
        end_user_location: location,
        country_region: country,
        project_stage: outcome === 3 ? 'Qualification' : 'Closed Won',
        progress: outcome === 3 ? 10 : outcome === 2 ? 80 : 100,
        value,
      },
    };
    if (outcome === 0 || outcome === 1) {
      return [
        {
          ...base,
          review: ['approved', null, submittedDaysAgo - 2],
          status: ['Completed', submittedDaysAgo - between(random, 25, 55)],
          milestones: [
            ['Kick-off', 5, 'completed'],
            ['Installation', 20, 'completed'],
            ['Acceptance', 35, 'completed'],
          ],
        },
      ];
    }
    if (outcome === 2) {
      return [
        {
          ...base,
          closesInDays: 40,
          review: ['approved', null, submittedDaysAgo - 3],
          status: ['In Progress', submittedDaysAgo - 10],
          extension: 'The customer moved the installation to next quarter.',
          extensionDecision: ['approved', 'Approved: the customer confirmed the new date.', submittedDaysAgo - 55],
        },
      ];
    }
    return index % 8 === 3
      ? [{ ...base, review: ['rejected', `${customer} is already covered by a vendor framework agreement.`, submittedDaysAgo - 4] }]
      : [base]; // never reviewed: the registration lapses after its validity
  });
}
