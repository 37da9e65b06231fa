import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAdminRole, normalizePermissions } from '../../domain/access';
import { APPLICATION_FIELDS, isPartnerCategory, LOGO_MAX_BYTES, type ApplicationDetails } from '../../domain/partners/application';
import { defaultPermissionsOfCategory } from '../../domain/partners/categoryDefaults';
import { partners, type PartnerEvent } from '../../domain/partners/partners';
import { emptyQuestionnaire, type QuestionnaireAnswers } from '../../domain/partners/questionnaire';
import { findPartner, listPartners, toPartnerDirectoryView, toPartnerView, type PartnerRow } from '../../projections/partners';
import { findUser, toUserView } from '../../projections/users';
import { metadataFromRequest, runCommand } from '../commands/dispatch';
import type { Applicant } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { IMAGE_TYPES, readMultipart, removeUpload, storeUpload } from '../plugins/uploads';
import type { Services } from '../services';
import { listQuerySchema, sendList } from './lists';
import { uuidParam } from './validation';
import { recordAnswer } from './records';
import { answerCreated, earlierCommand, idempotentCommand } from './created';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';

export const PARTNER_ROUTE_MESSAGES = {
  applicationSubmitted: 'Application submitted successfully. We will review it within 2-3 business days.',
  questionnaireSubmitted: 'Questionnaire submitted! Wait for Admin approval',
  approved: 'Partner approved',
  rejected: 'Partner rejected successfully',
  notFound: 'Partner not found.',
  pastVersionsOwnOnly: 'Only administrators and the applicant can read an application as it was in the past.',
  otherUser: 'You can only submit or change your own partner application.',
  applicantGone: "The applicant's account no longer exists.",
} as const;

/** What a rejected applicant reads when signing in. */
export const rejectedApplicantMessage = (reason: string) => `Your partner application was not approved: ${reason}`;

// ---- schemas ----

const text = (max: number) => z.string().max(max).optional().default('');

/** The wizard's fields: none is required by the specification; lengths are bounded. */
const applicationFields = z
  .object({
    company_name: text(200),
    contact_email: text(254),
    phone_number: text(40),
    business_type: text(100),
    business_type_other: text(200),
    business_address: text(500),
    years_in_business: text(40),
    certifications: text(2000),
    region: text(40),
    partner_references: text(2000),
    category: text(100),
    user_id: z.uuid({ error: 'User id is not valid.' }).optional(),
  })
  .strict();

/**
 * The questionnaire's shape. Missing answers arrive as empty text, so the decider answers each with
 * the specification's message ("City is required", "Please specify your job title", ...).
 */
const questionnaireBody = z
  .object({
    company_name: text(200),
    contact_email: text(254),
    contact_name: text(120),
    phone_number: text(40),
    job_title: text(60),
    job_title_other: text(120),
    website: text(300),
    country: text(80),
    country_other: text(120),
    city: text(120),
    location: text(300),
    state_region: text(100),
    postal_code: text(20),
    business_type: text(100),
    business_type_other: text(200),
    years_in_operation: text(40),
    employees_range: text(20),
    business_description: text(100),
    business_description_other: text(300),
    key_products: text(1000),
    target_markets: z
      .union([z.array(z.string().max(60)).max(10), z.string().max(60)])
      .optional()
      .default([])
      .transform((value) => (Array.isArray(value) ? value : value ? [value] : [])),
    target_markets_other: text(300),
    business_registration_number: text(100),
    tax_id: text(100),
    country_of_incorporation: text(80),
    country_of_incorporation_other: text(120),
    annual_turnover: text(60),
    annual_turnover_other: text(120),
    turnover_currency: text(10),
    turnover_currency_other: text(60),
    fiscal_year_end_month: text(20),
    are_financials_audited: text(10),
    agreed_to_terms: z.boolean().optional().default(false),
    user_id: z.uuid({ error: 'User id is not valid.' }).optional(),
  })
  .strict();

const permissionList = z.array(z.string().max(60)).max(60);

/** PATCH and PUT /partner/partners/:id: approval (category and permissions) or rejection (reason). */
const decisionBody = z.discriminatedUnion(
  'status',
  [
    // Without permissions, the category's defaults are granted (domain/partners/categoryDefaults.ts).
    z.object({ status: z.literal('approved'), category: z.string({ error: 'Please choose a partner category.' }).max(100), permissions: permissionList.optional() }).strict(),
    z.object({ status: z.literal('rejected'), rejection_reason: z.string({ error: 'Please give a reason for the rejection.' }).max(5000) }).strict(),
  ],
  { error: 'Status must be approved or rejected.' },
).meta({ example: { status: 'approved', category: 'Helix Authorized Reseller', permissions: ['Projects.Read', 'Orders.Browse'] } });

const STATUSES = ['pending', 'approved', 'rejected'] as const;
const listQuery = listQuerySchema(
  {
    status: z.enum(STATUSES).optional(),
    region: z.string().max(60).optional(),
    tier: z.string().max(60).optional(),
    category: z.string().max(100).optional(),
  },
  ['company_name', 'created_at', 'updated_at', 'status', 'region', 'tier', 'category', 'rating', 'projects_count'],
);

/** The total GET /partner/partners answers under a react-admin `filter`: every application for admins, the directory (approved only) for others. */
export async function partnerListTotal(db: Services['pool'], admin: boolean, filter: Readonly<Record<string, unknown>>): Promise<number> {
  const q = listQuery.parse({ filter: JSON.stringify(filter), range: '[0,0]' });
  if (!admin && q.filters.status && q.filters.status !== 'approved') return 0;
  const status = admin ? q.filters.status : 'approved';
  const { total } = await listPartners(db, { ids: q.ids, status, region: q.filters.region, tier: q.filters.tier, category: q.filters.category, search: q.search, searchContacts: admin }, { offset: 0, limit: 1 });
  return total;
}

/** A field error in the shared envelope's shape. */
function validationError(issues: z.core.$ZodIssue[]): HttpError {
  const details = issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.join(',') : '';
    return { field: [path, keys].filter(Boolean).join('.') || 'request', message: issue.message };
  });
  return new HttpError(400, 'VALIDATION_ERROR', details[0]?.message ?? 'The request is not valid.', details);
}

export async function partnerRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool } = services;

  const checkOwn = (applicant: Applicant, claimed: string | undefined) => {
    if (claimed !== undefined && claimed !== applicant.userId) throw new HttpError(403, 'FORBIDDEN', PARTNER_ROUTE_MESSAGES.otherUser);
  };

  const applicantMetadata = (request: FastifyRequest, applicant: Applicant) => ({ ...metadataFromRequest(request), actorId: applicant.userId, actorRole: applicant.role });

  const load = async (id: string): Promise<PartnerRow> => {
    const row = await findPartner(pool, id);
    if (!row) throw new HttpError(404, 'NOT_FOUND', PARTNER_ROUTE_MESSAGES.notFound);
    return row;
  };

  // ---- the applicant's submissions ----

  app.post(
    '/partner/onboarding',
    { schema: { tags: ['partners'], summary: "Submit the applicant's partner application (multipart, with company_logo)", consumes: ['multipart/form-data'] } },
    async (request, reply) => {
      const { applicant } = request;
      const form = await readMultipart(request, { company_logo: { label: 'Company logo', types: IMAGE_TYPES, maxBytes: LOGO_MAX_BYTES, maxCount: 1 } });
      const single = Object.fromEntries(Object.entries(form.fields).map(([key, value]) => [key, Array.isArray(value) ? value[value.length - 1] : value]));
      const parsed = applicationFields.safeParse(single);
      if (!parsed.success) throw validationError(parsed.error.issues);
      checkOwn(applicant, parsed.data.user_id);
      const user = await findUser(pool, applicant.userId);
      const details = Object.fromEntries(APPLICATION_FIELDS.map((field) => [field, parsed.data[field]])) as unknown as ApplicationDetails;
      // An application without a company name keeps the one given at registration.
      if (!details.company_name.trim()) details.company_name = user?.company_name ?? '';

      const created = { id: applicant.userId, location: `/api/partner/partners/${applicant.userId}` };
      const read = async () => ({ success: true, message: PARTNER_ROUTE_MESSAGES.applicationSubmitted, data: toPartnerView(await load(applicant.userId)) });
      const earlier = await earlierCommand(services, request, 'application', partners.streamId(applicant.userId));
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      const logo = form.files.company_logo?.[0];
      const stored = logo ? await storeUpload(services.config.UPLOAD_DIR, logo, 'public') : null;
      try {
        await runCommand(
          services,
          partners,
          applicant.userId,
          { type: 'SubmitApplication', partnerId: applicant.userId, userId: applicant.userId, details, companyLogo: stored },
          applicantMetadata(request, applicant),
          idempotentCommand(request, 'application'),
        );
      } catch (error) {
        if (stored) await removeUpload(services.config.UPLOAD_DIR, stored, 'public');
        throw error;
      }
      return answerCreated(services, reply, created, read);
    },
  );

  app.post(
    '/partner/onboarding/questionnaire',
    { schema: { tags: ['partners'], summary: "Submit the applicant's onboarding questionnaire", body: questionnaireBody } },
    async (request, reply) => {
      const { applicant } = request;
      const { user_id, ...given } = request.body;
      checkOwn(applicant, user_id);
      const answers: QuestionnaireAnswers = { ...emptyQuestionnaire(), ...given };
      const created = { id: applicant.userId, location: `/api/partner/partners/${applicant.userId}` };
      const read = async () => ({ success: true, message: PARTNER_ROUTE_MESSAGES.questionnaireSubmitted, data: toPartnerView(await load(applicant.userId)) });
      const earlier = await earlierCommand(services, request, 'questionnaire', partners.streamId(applicant.userId));
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      await runCommand(
        services,
        partners,
        applicant.userId,
        { type: 'SubmitQuestionnaire', partnerId: applicant.userId, userId: applicant.userId, answers },
        applicantMetadata(request, applicant),
        idempotentCommand(request, 'questionnaire'),
      );
      return answerCreated(services, reply, created, read);
    },
  );

  // ---- reading ----

  /**
   * Admins: every application, whole. Holders of Partners.Read: the directory, approved partners only,
   * without the financial answers and the decision's details.
   */
  app.get('/partner/partners', { schema: { tags: ['partners'], summary: 'Partner applications (admins) or the partner directory (Partners.Read)', querystring: listQuery } }, async (request, reply) => {
    const q = request.query;
    const admin = isAdminRole(request.principal.role);
    const status = admin ? q.filters.status : 'approved';
    if (!admin && q.filters.status && q.filters.status !== 'approved') return sendList(reply, 'partners', q, [], 0);
    const { rows, total } = await listPartners(
      pool,
      { ids: q.ids, status, region: q.filters.region, tier: q.filters.tier, category: q.filters.category, search: q.search, searchContacts: admin },
      { offset: q.offset, limit: q.limit, sort: q.sort },
    );
    return sendList(reply, 'partners', q, rows.map(admin ? toPartnerView : toPartnerDirectoryView), total);
  });

  app.get('/partner/partners/:id', { schema: { tags: ['partners'], summary: 'One partner (with asOf: the application as it was at that moment, for admins and the applicant)', params: uuidParam, querystring: asOfQuery } }, async (request) => {
    // Only the applicant's own account reads its whole application; its team members see the directory's view (domain/access lets them in with Partners.Read only).
    const own = request.principal.id === request.params.id;
    const row = await load(request.params.id);
    if (request.query.asOf) {
      if (!isAdminRole(request.principal.role) && !own) throw new HttpError(403, 'FORBIDDEN', PARTNER_ROUTE_MESSAGES.pastVersionsOwnOnly);
      return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.partners, row.id, request.query.asOf, request.principal, PARTNER_ROUTE_MESSAGES.notFound));
    }
    if (isAdminRole(request.principal.role) || own) return { success: true, data: toPartnerView(row) };
    // Others see approved partners only; a pending or rejected application is not theirs to know of.
    if (row.status !== 'approved') throw new HttpError(404, 'NOT_FOUND', PARTNER_ROUTE_MESSAGES.notFound);
    return { success: true, data: toPartnerDirectoryView(row) };
  });

  // The whole application's past: for administrators and the applicant, like the whole application today.
  versionsRoute(app, services, { path: '/partner/partners', type: VERSIONED_RECORDS.partners, params: uuidParam, notFound: PARTNER_ROUTE_MESSAGES.notFound, visible: async (_request, id) => (await load(id)).id });

  app.get(
    '/partner/partners/:id/history',
    { schema: { tags: ['partners'], summary: "An application's history: who did what, when and why (admins)", params: uuidParam } },
    async (request) => {
      const events = (await services.store.readStream(partners.streamId(request.params.id))) as unknown as Array<PartnerEvent & { id: string; metadata: { actorId: string | null; actorRole: string | null; occurredAt: string } }>;
      if (events.length === 0) throw new HttpError(404, 'NOT_FOUND', PARTNER_ROUTE_MESSAGES.notFound);
      const actorIds = [...new Set(events.map((e) => e.metadata.actorId).filter((a): a is string => Boolean(a)))];
      const { rows } = await pool.query<{ id: string; full_name: string }>('SELECT id::text, full_name FROM read.users WHERE id::text = ANY($1)', [actorIds]);
      const names = new Map(rows.map((r) => [r.id, r.full_name]));
      let status: string | null = null;
      const history = events.map((event) => {
        const before = status;
        const entry = describe(event);
        if ('status' in event.data) status = event.data.status;
        return {
          id: event.id,
          record_type: 'partners',
          record_id: request.params.id,
          event_type: event.type,
          action: entry.action,
          details: entry.details,
          from_status: 'status' in event.data ? before : null,
          to_status: status,
          reason: 'reason' in event.data ? event.data.reason : null,
          actor_id: event.metadata.actorId,
          actor_name: event.metadata.actorId ? (names.get(event.metadata.actorId) ?? null) : null,
          actor_role: event.metadata.actorRole,
          occurred_at: event.metadata.occurredAt,
        };
      });
      return { success: true, data: history };
    },
  );

  // ---- the administrator's decision ----

  const decide = async (request: FastifyRequest<{ Params: { id: string }; Body: z.infer<typeof decisionBody> }>) => {
    const body = request.body;
    const current = await load(request.params.id);
    const metadata = metadataFromRequest(request);
    if (body.status === 'rejected') {
      await runCommand(services, partners, current.id, { type: 'RejectPartner', reason: body.rejection_reason }, metadata);
      return { success: true, message: PARTNER_ROUTE_MESSAGES.rejected, data: { partner: toPartnerView(await load(current.id)) } };
    }
    const account = await findUser(pool, current.user_id);
    if (!account && current.status === 'pending') throw new HttpError(409, 'CONFLICT', PARTNER_ROUTE_MESSAGES.applicantGone);
    await runCommand(services, partners, current.id, { type: 'ApprovePartner', category: body.category, permissions: body.permissions ?? (isPartnerCategory(body.category) ? defaultPermissionsOfCategory(body.category) : []) }, metadata);
    const partner = toPartnerView(await load(current.id));
    // The account is activated and given these permissions by the approval process, moments later.
    const granted = normalizePermissions(partner.granted_permissions);
    const user = account ? { ...toUserView(account, normalizePermissions), is_active: true, status: 'active', permissions: granted, effectivePermissions: granted } : null;
    return { success: true, message: PARTNER_ROUTE_MESSAGES.approved, data: { partner, user } };
  };

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/partner/partners/:id',
      schema: { tags: ['partners'], summary: 'Approve (status approved, category, permissions) or reject (status rejected, rejection_reason) an application (admins)', params: uuidParam, body: decisionBody },
      handler: decide,
    });
  }
}

/** What an event of the application's stream did, in words. */
function describe(event: PartnerEvent): { action: string; details: Record<string, unknown> | null } {
  switch (event.type) {
    case 'PartnerApplicationSubmitted.v1':
      return { action: 'Application submitted', details: { company_name: event.data.companyName } };
    case 'PartnerApplicationDetailsProvided.v1':
      return { action: 'Company information and qualifications provided', details: { region: event.data.details.region || null, company_logo: event.data.companyLogo } };
    case 'PartnerQuestionnaireAnswered.v1':
      return { action: 'Onboarding questionnaire answered', details: { company_name: event.data.answers.company_name } };
    case 'PartnerApproved.v1':
      return { action: `Approved as ${event.data.category}`, details: { category: event.data.category, tier: event.data.tier, permissions: event.data.permissions } };
    case 'PartnerRejected.v1':
      return { action: 'Rejected', details: null };
  }
}
