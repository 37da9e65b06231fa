import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAdminRole, normalizePermissions } from '../../domain/access';
import { APPLICATION_FIELDS, isPartnerCategory, LOGO_MAX_BYTES, type ApplicationDetails } from '../../domain/partners/application';
import { defaultPermissionsOfCategory } from '../../domain/partners/categoryDefaults';
import {
  applicationFields,
  decisionAnswer,
  decisionBody,
  partnerAnswer,
  partnerAsOfAnswer,
  partnerHistoryAnswer,
  partnerListAnswer,
  partnerListQuery,
  partnerSubmittedAnswers,
  questionnaireBody,
} from '../../contracts/partners';
import { partners } from '../../domain/partners/partners';
import { emptyQuestionnaire, type QuestionnaireAnswers } from '../../domain/partners/questionnaire';
import { findPartner, listPartners, partnerHistoryOf, toPartnerDirectoryView, toPartnerView, type PartnerRow } from '../../projections/partners';
import { findUser, toUserView } from '../../projections/users';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import type { Applicant } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { IMAGE_TYPES, readMultipart } from '../plugins/uploads';
import { removeUpload, storeUpload } from '../../platform/uploadStorage';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { sendList } from './lists';
import { uuidParam, validationError } from './validation';
import { recordAnswer } from './records';
import { answerCreated, earlierCommand, idempotentCommand } from './created';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import { pick } from '../../domain/records';

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

// ---- schemas ----

export async function partnerRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;

  const checkOwn = (applicant: Applicant, claimed: string | undefined) => {
    if (claimed !== undefined && claimed !== applicant.userId) throw new HttpError(403, 'FORBIDDEN', PARTNER_ROUTE_MESSAGES.otherUser);
  };

  const applicantMetadata = (request: FastifyRequest, applicant: Applicant) => ({
    ...metadataFromRequest(request),
    actorId: applicant.userId,
    actorRole: applicant.role,
  });

  const load = async (id: string, db: Queryable = pool): Promise<PartnerRow> => {
    const row = await findPartner(db, id);
    if (!row) throw new HttpError(404, 'NOT_FOUND', PARTNER_ROUTE_MESSAGES.notFound);
    return row;
  };

  // ---- the applicant's submissions ----

  app.post(
    '/partner/onboarding',
    {
      schema: {
        tags: ['partners'],
        summary: "Submit the applicant's partner application (multipart, with company_logo)",
        consumes: ['multipart/form-data'],
        response: partnerSubmittedAnswers,
      },
    },
    async (request, reply) => {
      const { applicant } = request;
      const form = await readMultipart(request, { company_logo: { label: 'Company logo', types: IMAGE_TYPES, maxBytes: LOGO_MAX_BYTES, maxCount: 1 } });
      const single = Object.fromEntries(Object.entries(form.fields).map(([key, value]) => [key, Array.isArray(value) ? value[value.length - 1] : value]));
      const parsed = applicationFields.safeParse(single);
      if (!parsed.success) throw validationError(parsed.error.issues);
      checkOwn(applicant, parsed.data.user_id);
      const user = await findUser(pool, applicant.userId);
      const details: ApplicationDetails = pick(parsed.data, APPLICATION_FIELDS);
      // An application without a company name keeps the one given at registration.
      if (!details.company_name.trim()) details.company_name = user?.company_name ?? '';

      const created = { id: applicant.userId, location: `/api/partner/partners/${applicant.userId}` };
      const read = async () => ({
        success: true as const,
        message: PARTNER_ROUTE_MESSAGES.applicationSubmitted,
        data: toPartnerView(await load(applicant.userId)),
      });
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
    { schema: { tags: ['partners'], summary: "Submit the applicant's onboarding questionnaire", body: questionnaireBody, response: partnerSubmittedAnswers } },
    async (request, reply) => {
      const { applicant } = request;
      const { user_id, ...given } = request.body;
      checkOwn(applicant, user_id);
      const answers: QuestionnaireAnswers = { ...emptyQuestionnaire(), ...given };
      const created = { id: applicant.userId, location: `/api/partner/partners/${applicant.userId}` };
      const read = async () => ({
        success: true as const,
        message: PARTNER_ROUTE_MESSAGES.questionnaireSubmitted,
        data: toPartnerView(await load(applicant.userId)),
      });
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
  app.get(
    '/partner/partners',
    {
      schema: {
        tags: ['partners'],
        summary: 'Partner applications (admins) or the partner directory (Partners.Read)',
        querystring: partnerListQuery,
        response: { 200: partnerListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const admin = isAdminRole(request.principal.role);
      const status = admin ? q.filters.status : 'approved';
      if (!admin && q.filters.status && q.filters.status !== 'approved') return sendList(reply, 'partners', q, [], 0) as z.infer<typeof partnerListAnswer>;
      const { rows, total } = await listPartners(
        reads,
        { ids: q.ids, status, region: q.filters.region, tier: q.filters.tier, category: q.filters.category, search: q.search, searchContacts: admin },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      return (
        admin ? sendList(reply, 'partners', q, rows.map(toPartnerView), total) : sendList(reply, 'partners', q, rows.map(toPartnerDirectoryView), total)
      ) as z.infer<typeof partnerListAnswer>;
    },
  );

  app.get(
    '/partner/partners/:id',
    {
      schema: {
        tags: ['partners'],
        summary: 'One partner (with asOf: the application as it was at that moment, for admins and the applicant)',
        params: uuidParam,
        querystring: asOfQuery,
        response: { 200: z.union([partnerAsOfAnswer, partnerAnswer]) },
      },
    },
    async (request) => {
      // Only the applicant's own account reads its whole application; its team members see the directory's view (domain/access lets them in with Partners.Read only).
      const own = request.principal.id === request.params.id;
      const row = await load(request.params.id, reads);
      if (request.query.asOf) {
        if (!isAdminRole(request.principal.role) && !own) throw new HttpError(403, 'FORBIDDEN', PARTNER_ROUTE_MESSAGES.pastVersionsOwnOnly);
        return recordAnswer(
          await asOfAnswer(services, VERSIONED_RECORDS.partners, row.id, request.query.asOf, request.principal, PARTNER_ROUTE_MESSAGES.notFound),
        );
      }
      if (isAdminRole(request.principal.role) || own) return { success: true as const, data: toPartnerView(row) };
      // Others see approved partners only; a pending or rejected application is not theirs to know of.
      if (row.status !== 'approved') throw new HttpError(404, 'NOT_FOUND', PARTNER_ROUTE_MESSAGES.notFound);
      return { success: true as const, data: toPartnerDirectoryView(row) };
    },
  );

  // The whole application's past: for administrators and the applicant, like the whole application today.
  versionsRoute(app, services, {
    path: '/partner/partners',
    type: VERSIONED_RECORDS.partners,
    params: uuidParam,
    notFound: PARTNER_ROUTE_MESSAGES.notFound,
    visible: async (_request, id) => (await load(id, reads)).id,
  });

  app.get(
    '/partner/partners/:id/history',
    {
      schema: {
        tags: ['partners'],
        summary: "An application's history: who did what, when and why (admins)",
        params: uuidParam,
        response: { 200: partnerHistoryAnswer },
      },
    },
    async (request) => {
      const stream = await services.store.readStream(partners.streamId(request.params.id));
      if (stream.length === 0) throw new HttpError(404, 'NOT_FOUND', PARTNER_ROUTE_MESSAGES.notFound);
      return { success: true as const, data: await partnerHistoryOf(reads, request.params.id, stream) };
    },
  );

  // ---- the administrator's decision ----

  const decide = async (request: FastifyRequest<{ Params: { id: string }; Body: z.infer<typeof decisionBody> }>) => {
    const body = request.body;
    const current = await load(request.params.id);
    const metadata = metadataFromRequest(request);
    if (body.status === 'rejected') {
      await runCommand(services, partners, current.id, { type: 'RejectPartner', reason: body.rejection_reason }, metadata);
      return { success: true as const, message: PARTNER_ROUTE_MESSAGES.rejected, data: { partner: toPartnerView(await load(current.id)) } };
    }
    const account = await findUser(pool, current.user_id);
    if (!account && current.status === 'pending') throw new HttpError(409, 'CONFLICT', PARTNER_ROUTE_MESSAGES.applicantGone);
    await runCommand(
      services,
      partners,
      current.id,
      {
        type: 'ApprovePartner',
        category: body.category,
        permissions: body.permissions ?? (isPartnerCategory(body.category) ? defaultPermissionsOfCategory(body.category) : []),
      },
      metadata,
    );
    const partner = toPartnerView(await load(current.id));
    // The account is activated and given these permissions by the approval process, moments later.
    const granted = normalizePermissions(partner.granted_permissions);
    const user = account
      ? { ...toUserView(account, normalizePermissions), is_active: true, status: 'active' as const, permissions: granted, effectivePermissions: granted }
      : null;
    return { success: true as const, message: PARTNER_ROUTE_MESSAGES.approved, data: { partner, user } };
  };

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/partner/partners/:id',
      schema: {
        tags: ['partners'],
        summary: 'Approve (status approved, category, permissions) or reject (status rejected, rejection_reason) an application (admins)',
        params: uuidParam,
        body: decisionBody,
        response: { 200: decisionAnswer },
      },
      handler: decide,
    });
  }
}
