import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { DEFAULT_PERMISSIONS_BY_ROLE, PARTNER_APPROVAL_PERMISSION_GROUPS } from '../../domain/access';
import type { CommandMetadata } from '../../domain/decider';
import { emptyApplication, type ApplicationDetails, type PartnerCategory } from '../../domain/partners/application';
import { partners, type PartnerCommand } from '../../domain/partners/partners';
import { emptyQuestionnaire, type QuestionnaireAnswers } from '../../domain/partners/questionnaire';
import { findUser } from '../../projections/users';
import { approvalProcessData, completePartnerApproval } from '../../workers/partners';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { registerUser } from '../../commands/users';
import { hashPassword } from '../../platform/passwords';
import type { Services } from '../../platform/services';
import { DEMO_PASSWORD, demoUserId } from './identity';
import type { Seeder } from './seeder';
import { demoCalendar } from './timeline';

// ---- logos drawn in code: an SVG monogram, or a small PNG badge ----

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 96×96 PNG: a rounded badge in `colour` with a lighter diagonal band. */
export function badgePng(colour: string, accent: string): Buffer {
  const size = 96;
  const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const [base, light] = [rgb(colour), rgb(accent)];
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      const dx = Math.max(0, Math.abs(x - 47.5) - 32);
      const dy = Math.max(0, Math.abs(y - 47.5) - 32);
      const inside = dx * dx + dy * dy <= 15 * 15;
      const band = Math.abs(x + y - 96) < 14;
      const ring = Math.hypot(x - 47.5, y - 47.5);
      const dot = ring < 14 || (ring > 22 && ring < 27);
      const [r, g, b] = dot ? [255, 255, 255] : band ? light : base;
      row.set([r, g, b, inside ? 255 : 0], 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A monogram logo: the company's initials on a rounded square. */
export function monogramSvg(initials: string, colour: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120">',
    `<rect width="120" height="120" rx="24" fill="${colour}"/>`,
    '<circle cx="96" cy="24" r="10" fill="#ffffff" fill-opacity="0.25"/>',
    `<text x="60" y="74" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="44" font-weight="700" fill="#ffffff">${initials}</text>`,
    '</svg>',
    '',
  ].join('\n');
}

// ---- the demo applications ----

interface DemoApplicant {
  email: string;
  fullName: string;
  /** The applicant's answers; the company name, e-mail and contact come from the fields above. */
  questionnaire: Partial<QuestionnaireAnswers> & Pick<QuestionnaireAnswers, 'company_name' | 'country' | 'city'>;
  application?: Partial<ApplicationDetails>;
  logo?: { kind: 'svg'; initials: string; colour: string } | { kind: 'png'; colour: string; accent: string };
  decision?: { status: 'approved'; category: PartnerCategory; permissions?: readonly string[] } | { status: 'rejected'; reason: string };
  /** With months of demo history: how many days ago the applicant registered (the decision follows a few days later). */
  appliedDaysAgo: number;
}

const pickerPermissions = PARTNER_APPROVAL_PERMISSION_GROUPS.flatMap((group) => group.permissions);

export const DEMO_APPLICANTS: readonly DemoApplicant[] = [
  // The demo partner account of the README, approved long ago.
  {
    email: 'partner@partnerhub.test',
    appliedDaysAgo: 188,
    fullName: 'Priya Shah',
    questionnaire: {
      company_name: 'Northwind Networks',
      country: 'United Kingdom',
      city: 'London',
      location: '12 Harbour Exchange Square, London E14',
      state_region: 'Greater London',
      postal_code: 'E14 9GE',
      business_type: 'Private Limited',
      business_description: 'Technology & Software',
      employees_range: '51–200',
      years_in_operation: '14',
      website: 'https://northwind-networks.test',
      key_products: 'Campus switching, Wi-Fi, managed LAN services',
      target_markets: ['Europe', 'Middle East'],
    },
    application: {
      region: 'Europe',
      certifications: 'ISO 9001, Helix Certified Network Engineer (6 staff)',
      partner_references: 'City of Westminster schools; Thames Logistics',
    },
    logo: { kind: 'svg', initials: 'NN', colour: '#0d5ea8' },
    decision: { status: 'approved', category: 'Helix Value Added Distributor', permissions: DEFAULT_PERMISSIONS_BY_ROLE.partner },
  },
  {
    email: 'lucia.fernandez@pampas-digital.test',
    appliedDaysAgo: 150,
    fullName: 'Lucía Fernández',
    questionnaire: {
      company_name: 'Pampas Digital S.A.',
      country: 'Argentina',
      city: 'Buenos Aires',
      location: 'Av. Corrientes 1234, C1043 CABA',
      business_type: 'Public Limited',
      business_description: 'Consulting & Professional Services',
      employees_range: '201–500',
      years_in_operation: '22',
      target_markets: ['Latin America'],
      turnover_currency: 'USD',
    },
    application: { region: 'South America', certifications: 'Helix Gold Installer', partner_references: 'Banco del Sur; Universidad de Córdoba' },
    logo: { kind: 'png', colour: '#2e7d32', accent: '#66bb6a' },
    decision: { status: 'approved', category: 'Helix Authorized Distributor' },
  },
  {
    email: 'kenji.mori@sakura-netcom.test',
    appliedDaysAgo: 110,
    fullName: 'Kenji Mori',
    questionnaire: {
      company_name: 'Sakura Netcom K.K.',
      country: 'Japan',
      city: 'Osaka',
      location: '3-6-1 Umeda, Kita-ku',
      business_type: 'Limited Liability Company (LLC)',
      business_description: 'Transportation & Logistics',
      employees_range: '500+',
      years_in_operation: '31',
      target_markets: ['Asia-Pacific'],
      turnover_currency: 'JPY',
      annual_turnover: '$10M+',
    },
    application: { region: 'Asia', certifications: 'ISO 27001', partner_references: 'Kansai Rail; Port of Osaka' },
    logo: { kind: 'svg', initials: 'SN', colour: '#c2185b' },
    decision: { status: 'approved', category: 'Helix Exclusive Distributor' },
  },
  {
    email: 'amani.otieno@kilima-tech.test',
    appliedDaysAgo: 60,
    fullName: 'Amani Otieno',
    questionnaire: {
      company_name: 'Kilima Tech Collective',
      country: 'Kenya',
      city: 'Nairobi',
      location: 'Ngong Road, Kilimani',
      business_type: 'Other',
      business_type_other: 'Social enterprise',
      business_description: 'Education',
      employees_range: '11–50',
      years_in_operation: '6',
      target_markets: ['Africa'],
    },
    logo: { kind: 'png', colour: '#ef6c00', accent: '#ffb74d' },
    decision: {
      status: 'approved',
      category: 'Helix Authorized Distributor',
      permissions: ['Projects.Read', 'Projects.Create', 'Orders.Browse', 'Orders.Track', 'Support.Read'],
    },
  },
  // Waiting for a decision.
  {
    email: 'wei.lim@aurora-systems.test',
    appliedDaysAgo: 5,
    fullName: 'Wei Lim',
    questionnaire: {
      company_name: 'Aurora Systems Pte Ltd',
      country: 'Singapore',
      city: 'Singapore',
      location: '1 Fusionopolis Way, #20-02',
      business_type: 'Private Limited',
      business_description: 'Technology & Software',
      employees_range: '51–200',
      years_in_operation: '9',
      target_markets: ['Asia-Pacific', 'Global'],
      key_products: 'Data-centre networking, SD-WAN',
      tax_id: 'SG-201912345K',
    },
    application: {
      region: 'Asia',
      certifications: 'Helix Certified Network Engineer (3 staff)',
      partner_references: 'Marina Bay Hotels; SG Polytechnic',
      category: 'Helix Value Added Distributor',
    },
    logo: { kind: 'svg', initials: 'AS', colour: '#6a1b9a' },
  },
  {
    email: 'marc.tremblay@cascade-integrators.test',
    appliedDaysAgo: 3,
    fullName: 'Marc Tremblay',
    questionnaire: {
      company_name: 'Cascade Integrators Inc.',
      country: 'Canada',
      city: 'Montréal',
      location: '800 Rue du Square-Victoria',
      business_type: 'Public Limited',
      business_description: 'Energy & Utilities',
      employees_range: '201–500',
      years_in_operation: '18',
      target_markets: ['North America'],
      job_title: 'Other',
      job_title_other: 'Director of Alliances',
    },
    application: { region: 'North America', certifications: 'IEC 62443 practitioners', partner_references: 'Hydro-Nord substations' },
    logo: { kind: 'png', colour: '#00838f', accent: '#4dd0e1' },
  },
  {
    email: 'fatima.haddad@sahara-net.test',
    appliedDaysAgo: 1,
    fullName: 'Fatima Haddad',
    questionnaire: {
      company_name: 'Sahara Net Solutions',
      country: 'United Arab Emirates',
      city: 'Dubai',
      location: 'Dubai Internet City, Building 9',
      business_type: 'Establishment',
      business_description: 'Retail & E-commerce',
      employees_range: '11–50',
      years_in_operation: '4',
      target_markets: ['Middle East', 'Africa'],
      turnover_currency: 'Other',
      turnover_currency_other: 'AED',
      country_of_incorporation: 'United Arab Emirates',
    },
    logo: { kind: 'svg', initials: 'SN', colour: '#a1887f' },
  },
  // Turned down, with the reason the applicant reads.
  {
    email: 'dave.quick@quickbuck-traders.test',
    appliedDaysAgo: 34,
    fullName: 'Dave Quick',
    questionnaire: {
      company_name: 'Quickbuck Traders',
      country: 'United States',
      city: 'Reno',
      location: 'PO Box 77',
      business_type: 'Sole Proprietorship',
      business_description: 'Retail & E-commerce',
      employees_range: '1–10',
      years_in_operation: '1',
      target_markets: ['Global'],
    },
    decision: {
      status: 'rejected',
      reason: 'We could not verify the business registration number you gave. You are welcome to apply again with a copy of your registration certificate.',
    },
  },
];

function answersOf(demo: DemoApplicant): QuestionnaireAnswers {
  const country = demo.questionnaire.country;
  return {
    ...emptyQuestionnaire(),
    contact_email: demo.email,
    contact_name: demo.fullName,
    phone_number: '+1 555 0100',
    job_title: 'CEO',
    business_type: 'Private Limited',
    years_in_operation: '10',
    employees_range: '11–50',
    business_description: 'Technology & Software',
    target_markets: ['Global'],
    business_registration_number: `REG-${demo.questionnaire.company_name.replace(/[^A-Z]/g, '').slice(0, 4)}-${demo.email.length * 7919}`,
    country_of_incorporation:
      country === 'United Arab Emirates' || country === 'United Kingdom' || country === 'Canada' || country === 'Japan' ? country : 'Other',
    country_of_incorporation_other: ['United Arab Emirates', 'United Kingdom', 'Canada', 'Japan'].includes(country) ? '' : country,
    annual_turnover: '$1M – $10M',
    turnover_currency: 'USD',
    fiscal_year_end_month: 'December',
    are_financials_audited: 'Yes',
    agreed_to_terms: true,
    ...demo.questionnaire,
  };
}

/** Writes a demo logo into the public uploads under a name derived from the applicant, unless it is there already. */
async function ensureLogo(services: Services, demo: DemoApplicant): Promise<string | null> {
  if (!demo.logo) return null;
  const name = `${deterministicUuid(`demo-partner-logo:${demo.email}`)}.${demo.logo.kind}`;
  const file = path.join(services.config.UPLOAD_DIR, 'public', name);
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, demo.logo.kind === 'svg' ? monogramSvg(demo.logo.initials, demo.logo.colour) : badgePng(demo.logo.colour, demo.logo.accent));
  }
  return name;
}

async function ensureAccount(services: Services, demo: DemoApplicant, passwordHash: string, metadata: CommandMetadata): Promise<string> {
  const userId = demoUserId(demo.email);
  if (!(await findUser(services.pool, userId))) {
    await registerUser(
      services,
      {
        type: 'RegisterUser',
        userId,
        email: demo.email,
        fullName: demo.fullName,
        companyName: demo.questionnaire.company_name,
        role: 'partner',
        permissions: [],
        parentUserId: null,
        passwordHash,
        isActive: false,
        selfRegistered: true,
      },
      { ...metadata, actorId: userId, actorRole: 'partner' },
    );
  }
  return userId;
}

/**
 * Partner applications in every state: approved partners for the directory (regions, tiers, cities,
 * logos), applications waiting in Partner Approvals with their questionnaires, and one rejected with
 * its reason. Each goes through the real commands, the approvals through the real approval process.
 */
export const seedPartners: Seeder = {
  name: 'partner applications',
  async run(services, seedMetadata) {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const calendar = demoCalendar(services, seedMetadata);
    let created = 0;
    for (const demo of DEMO_APPLICANTS) {
      // Applicants joined over the months of history, and were decided on a few days after applying.
      const applied = calendar.historyDays > 0 ? calendar.at(Math.min(demo.appliedDaysAgo, calendar.historyDays), 11) : seedMetadata;
      const metadata = calendar.historyDays > 0 ? calendar.at(Math.max(0, Math.min(demo.appliedDaysAgo, calendar.historyDays) - 3), 15) : seedMetadata;
      const userId = await ensureAccount(services, demo, passwordHash, applied);
      if ((await services.store.readStream(partners.streamId(userId))).length) continue;
      const asApplicant = { ...applied, actorId: userId, actorRole: 'partner' };
      const answers = answersOf(demo);
      await runCommand(services, partners, userId, { type: 'SubmitQuestionnaire', partnerId: userId, userId, answers }, asApplicant);
      if (demo.application || demo.logo) {
        const details: ApplicationDetails = {
          ...emptyApplication(),
          company_name: answers.company_name,
          contact_email: answers.contact_email,
          phone_number: answers.phone_number,
          business_type: answers.business_type,
          business_type_other: answers.business_type_other,
          business_address: `${answers.location}, ${answers.city}`,
          years_in_business: answers.years_in_operation,
          ...demo.application,
        };
        const command: PartnerCommand = { type: 'SubmitApplication', partnerId: userId, userId, details, companyLogo: await ensureLogo(services, demo) };
        await runCommand(services, partners, userId, command, asApplicant);
      }
      if (demo.decision?.status === 'rejected') {
        await runCommand(services, partners, userId, { type: 'RejectPartner', reason: demo.decision.reason }, metadata);
      } else if (demo.decision?.status === 'approved') {
        const permissions = [...(demo.decision.permissions ?? pickerPermissions)];
        await runCommand(services, partners, userId, { type: 'ApprovePartner', category: demo.decision.category, permissions }, metadata);
        // The approval process, run here so the accounts are ready without waiting for the worker
        // (which runs it again as a no-op).
        const approval = (await services.store.readStream(partners.streamId(userId))).find((event) => event.type === 'PartnerApproved.v1')!;
        await completePartnerApproval(services, approvalProcessData(approval));
      }
      created++;
    }
    return `${created} of ${DEMO_APPLICANTS.length} demo partner applications created`;
  },
};
