import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DomainError, type CommandMetadata } from '../../domain/decider';
import { emptyProjectDetails, projects, type ProjectCommand, type ProjectDetails } from '../../domain/projects/projects';
import { DAY_MS } from '../../domain/projects/registration';
import { findUser } from '../../projections/users';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { registerProject } from '../../commands/projects';
import { demoUserId } from './identity';
import { demoOrderId } from './orders';
import type { Services } from '../../platform/services';
import type { Seeder } from './seeder';
import type { DemoProject } from './demoProject';
import { historyProjects } from './historyProjects';

const NORTHWIND = 'partner@partnerhub.test';
const PAMPAS = 'lucia.fernandez@pampas-digital.test';
const SAKURA = 'kenji.mori@sakura-netcom.test';

/**
 * Projects across the demo partners: every work status, registrations pending, approved, rejected,
 * expired (the worker's sweep expires it at start), one expiring within a week with an extension
 * request, and one conflict awaiting review (Pampas registers a customer Northwind already holds).
 */
export const DEMO_PROJECTS: readonly DemoProject[] = [
  {
    key: 'northwind-contoso',
    owner: NORTHWIND,
    submittedDaysAgo: 20,
    closesInDays: 75,
    details: {
      title: 'Contoso Retail store network refresh',
      end_user_customer_name: 'Contoso Retail Group',
      end_user_email: 'it.procurement@contoso-retail.test',
      end_user_location: 'Seattle, WA',
      end_user_it_head_name: 'Marcus Webb',
      end_user_contact_number: '+1 206 555 0188',
      end_user_requirements: 'PoE access switching for 42 stores, centrally managed.',
      country_region: 'United States',
      sales_person: 'Priya Shah',
      project_stage: 'Proposal',
      progress: 45,
      value: 286_500,
    },
    status: ['In Progress', 12],
    review: ['approved', null, 18],
    milestones: [
      ['Site surveys', 6, 'completed'],
      ['Pilot store cut-over', 30, 'in-progress'],
      ['Roll-out wave 1', 60, 'pending'],
    ],
    team: [NORTHWIND, 'partner.user@partnerhub.test'],
    orders: ['northwind-1'],
  },
  {
    key: 'northwind-harbour',
    owner: NORTHWIND,
    submittedDaysAgo: 55,
    closesInDays: 30,
    details: {
      title: 'Harbour Authority port Wi-Fi backbone',
      end_user_customer_name: 'Port of Elliott Bay Authority',
      end_user_email: 'network@elliottbay-port.test',
      end_user_location: 'Seattle, WA',
      country_region: 'United States',
      sales_person: 'Lena Fischer',
      project_stage: 'Negotiation',
      progress: 70,
      value: 142_000,
    },
    status: ['In Progress', 40],
    extension: 'The authority board moved its vote to next month.',
    milestones: [
      ['Design sign-off', 10, 'completed'],
      ['Board vote', 70, 'pending'],
    ],
    team: ['partner.user@partnerhub.test'],
  },
  {
    key: 'northwind-clinic',
    owner: NORTHWIND,
    submittedDaysAgo: 3,
    closesInDays: 120,
    details: {
      title: 'Lakeside Clinics campus core',
      end_user_customer_name: 'Lakeside Clinics',
      end_user_location: 'Tacoma, WA',
      country_region: 'United States',
      project_stage: 'Qualification',
      progress: 5,
      value: 64_250,
    },
    milestones: [['Discovery workshop', 7, 'pending']],
  },
  {
    key: 'northwind-school',
    owner: NORTHWIND,
    submittedDaysAgo: 48,
    closesInDays: 20,
    details: {
      title: 'Cedar School District summer upgrade',
      end_user_customer_name: 'Cedar School District',
      country_region: 'United States',
      project_stage: 'Closed won',
      progress: 80,
      value: 98_400,
    },
    status: ['Completed', 5],
    review: ['approved', null, 45],
    milestones: [['Install over summer break', 30, 'completed']],
  },
  {
    key: 'northwind-logistics',
    owner: NORTHWIND,
    submittedDaysAgo: 70,
    closesInDays: 40,
    details: {
      title: 'Evergreen Logistics warehouse wireless',
      end_user_customer_name: 'Evergreen Logistics',
      country_region: 'United States',
      project_stage: 'Stalled',
      progress: 25,
      value: 51_000,
    },
    status: ['On Hold', 30],
  },
  {
    key: 'pampas-contoso',
    owner: PAMPAS,
    submittedDaysAgo: 2,
    closesInDays: 90,
    details: {
      title: 'Contoso Retail Latin America stores',
      end_user_customer_name: 'Contoso Retail Group.',
      end_user_email: 'compras@contoso-retail.test',
      end_user_location: 'Buenos Aires',
      country_region: 'Argentina',
      project_stage: 'Qualification',
      progress: 10,
      value: 175_000,
    },
  },
  {
    key: 'pampas-bank',
    owner: PAMPAS,
    submittedDaysAgo: 15,
    closesInDays: 100,
    details: {
      title: 'Banco Austral branch SD-WAN',
      end_user_customer_name: 'Banco Austral',
      country_region: 'Argentina',
      project_stage: 'Proposal',
      progress: 35,
      value: 320_000,
    },
    status: ['In Progress', 9],
    review: ['approved', null, 14],
  },
  {
    key: 'sakura-rail',
    owner: SAKURA,
    submittedDaysAgo: 25,
    closesInDays: 80,
    details: {
      title: 'Kansai Rail station switching',
      end_user_customer_name: 'Kansai Rail',
      country_region: 'Japan',
      project_stage: 'Qualification',
      progress: 15,
      value: 410_000,
    },
    review: ['rejected', 'Kansai Rail buys direct under a framework agreement with the vendor.', 22],
  },
  {
    key: 'sakura-factory',
    owner: SAKURA,
    submittedDaysAgo: 8,
    closesInDays: 60,
    details: {
      title: 'Osaka Precision factory floor network',
      end_user_customer_name: 'Osaka Precision',
      country_region: 'Japan',
      project_stage: 'Proposal',
      progress: 30,
      value: 132_800,
    },
    status: ['In Progress', 4],
  },
];

export const demoProjectId = (key: string) => deterministicUuid(`demo-project:${key}`);

/** A bill of quantities for a demo project, written once into the private uploads under a name derived from the project. */
async function ensureBoq(services: Services, demo: DemoProject): Promise<string> {
  const name = `${deterministicUuid(`demo-project-boq:${demo.key}`)}.csv`;
  const file = path.join(services.config.UPLOAD_DIR, 'private', name);
  const lines = [
    'item,description,quantity,unit_price_usd',
    'HX-M2424,24-port managed PoE switch,12,1299.50',
    'SFP-10G-SR,10G SR optic,48,49.99',
    `SVC-INSTALL,Installation for ${demo.details.title.replace(/,/g, ' ')},1,8500.00`,
  ];
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${lines.join('\n')}\n`, { flag: 'w' });
  return name;
}

const dateOnly = (time: number) => new Date(time).toISOString().slice(0, 10);

function detailsOf(demo: DemoProject, closes: string): ProjectDetails {
  return { ...emptyProjectDetails(), ...demo.details, expected_closure_date: closes };
}

export const seedProjects: Seeder = {
  name: 'projects',
  async run(services, metadata) {
    const now = Date.parse(metadata.now);
    const at = (daysAgo: number, base: CommandMetadata): CommandMetadata => ({
      ...base,
      now: new Date(now - daysAgo * DAY_MS - 2 * 60 * 60 * 1000).toISOString(),
    });
    let created = 0;
    // Oldest first, so the earlier registration of a customer is the one that protects it.
    const all = [...historyProjects(services, metadata), ...DEMO_PROJECTS];
    for (const demo of all.sort((a, b) => b.submittedDaysAgo - a.submittedDaysAgo)) {
      const owner = await findUser(services.pool, demoUserId(demo.owner));
      if (!owner || !owner.is_active) continue;
      const projectId = demoProjectId(demo.key);
      if ((await services.store.readStream(projects.streamId(projectId))).length) continue;
      const asOwner = { ...metadata, actorId: owner.id, actorRole: owner.role };
      const submitted = at(demo.submittedDaysAgo, asOwner);
      const details = detailsOf(demo, dateOnly(now + demo.closesInDays * DAY_MS));
      await registerProject(
        services,
        { projectId, organisationId: owner.id, companyName: owner.company_name, createdBy: owner.id, details, boqFile: await ensureBoq(services, demo) },
        submitted,
      );
      const run = (command: ProjectCommand, m: CommandMetadata) => runCommand(services, projects, projectId, command, m);
      for (const [name, offset, status] of demo.milestones ?? []) {
        await run(
          {
            type: 'AddMilestone',
            milestoneId: deterministicUuid(`demo-milestone:${demo.key}:${name}`),
            name,
            date: dateOnly(Date.parse(submitted.now) + offset * DAY_MS),
            status,
          },
          submitted,
        );
      }
      for (const email of demo.team ?? []) await run({ type: 'AddTeamMember', userId: demoUserId(email) }, submitted);
      for (const order of demo.orders ?? []) {
        if ((await services.store.readStream(`orders-${demoOrderId(order)}`)).length) await run({ type: 'LinkOrder', orderId: demoOrderId(order) }, submitted);
      }
      // With a short validity (tests) a registration may have lapsed by then: those steps are left out.
      const unlessLapsed = (step: Promise<unknown>) =>
        step.catch((error: unknown) => {
          if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
        });
      if (demo.review) await unlessLapsed(run({ type: 'ReviewRegistration', decision: demo.review[0], reason: demo.review[1] }, at(demo.review[2], metadata)));
      if (demo.status) await run({ type: 'ChangeProjectStatus', status: demo.status[0], reason: null }, at(demo.status[1], asOwner));
      if (demo.extension && demo.extensionDecision) {
        const [decision, reason, daysAgo] = demo.extensionDecision;
        await unlessLapsed(run({ type: 'RequestExtension', reason: demo.extension }, at(daysAgo + 1, asOwner)));
        await unlessLapsed(
          run({ type: 'DecideExtension', decision, reason, extensionMs: services.config.DEAL_REGISTRATION_EXTENSION_MS }, at(daysAgo, metadata)),
        );
      } else if (demo.extension) await unlessLapsed(run({ type: 'RequestExtension', reason: demo.extension }, at(1, asOwner)));
      created++;
    }
    return `${created} of ${all.length} demo projects created`;
  },
};
