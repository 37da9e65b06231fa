import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assignmentAnswer,
  assignmentBody,
  assignmentCreatedAnswers,
  assignmentListAnswer,
  attemptAnswer,
  attemptBody,
  attemptListAnswer,
  certificationAnswer,
  certificationListAnswer,
  courseAdminAnswer,
  courseAnswer,
  courseArchiveBody,
  courseBody,
  courseCreatedAnswers,
  courseHistoryAnswer,
  courseListAnswer,
  courseUpdateBody,
  enrolmentAnswer,
  enrolmentListAnswer,
  matrixAnswer,
  mediaUploadAnswer,
  progressBody,
  reportAnswer,
  verificationAnswer,
  type CertificationRow,
  type CourseAdminView,
  type CourseRow,
} from '../../contracts/learning';
import type { Decider, DomainEvent } from '../../domain/decider';
import { hasPermission, isSubUserRole, seesAllOrganisations } from '../../domain/access';
import { PRODUCT_CATEGORIES } from '../../domain/products/products';
import { ASSIGNMENT_MESSAGES, assignments } from '../../domain/learning/assignments';
import { COURSE_MESSAGES, courses } from '../../domain/learning/courses';
import { ENROLMENT_MESSAGES, enrolments } from '../../domain/learning/enrolments';
import {
  ASSIGNMENT_STATUSES,
  CERTIFICATION_STATUSES,
  COURSE_LEVELS,
  COURSE_STATUSES,
  ENROLMENT_STATUSES,
  LEARNER_ROLES,
  LESSON_MEDIA_TYPES,
} from '../../domain/learning/vocabulary';
import {
  allCertifications,
  allCourses,
  ASSIGNMENT_SORT_FIELDS,
  attemptsOf,
  CERTIFICATION_SORT_FIELDS,
  COURSE_SORT_FIELDS,
  courseReport,
  courseVersions,
  ENROLMENT_SORT_FIELDS,
  findCertification,
  findCourse,
  findEnrolment,
  hasOpenAssignment,
  learnerOrganisation,
  listAssignments,
  listCertifications,
  listCourses,
  listEnrolments,
  trainingMatrix,
  verifyCertification,
  type LearningViewer,
} from '../../projections/learning';
import { statusHistoryOf } from '../../projections/statusHistory';
import { contentFrom, courseState, createCourse, enrolmentIdOf, snapshotOf, submitAttempt } from '../../commands/learning';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { auditActorOf, exportFilters, recordAuditEntry, recordedWhenDone } from '../plugins/auditTrail';
import { HttpError } from '../plugins/errors';
import { AttemptLimit } from '../plugins/throttle';
import { readMultipart, sendUpload, uploadNameParam, type FileRule } from '../plugins/uploads';
import { storeUpload } from '../../platform/uploadStorage';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { certificatePdf } from './certificatePdf';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { csvLines, sendCsv, type CsvColumns } from './csv';
import { booleanFilter, listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { recordAnswer } from './records';
import { uuidParam } from './validation';

const MEDIA_RULE: FileRule = { label: 'Lesson file', types: ['mp4', 'webm', 'pdf', 'png', 'jpg', 'gif', 'webp'], maxBytes: 10 * 1024 * 1024, maxCount: 1 };
const mediaTypeOf = (type: string): (typeof LESSON_MEDIA_TYPES)[number] => (type === 'mp4' || type === 'webm' ? 'video' : type === 'pdf' ? 'pdf' : 'image');

/** Verification answers per client address and minute: enough for a person checking a few codes, too few to guess codes. */
export const VERIFICATIONS_PER_MINUTE = 20;

const uuidFilter = (label: string) => z.uuid({ error: `${label} is not a valid id.` }).optional();

const courseListQuery = listQuerySchema(
  {
    audience: z.enum(LEARNER_ROLES, { error: `Audience must be one of: ${LEARNER_ROLES.join(', ')}.` }).optional(),
    product_category: z.enum(PRODUCT_CATEGORIES, { error: `Product category must be one of: ${PRODUCT_CATEGORIES.join(', ')}.` }).optional(),
    level: z.enum(COURSE_LEVELS, { error: `Level must be one of: ${COURSE_LEVELS.join(', ')}.` }).optional(),
    status: z.enum(COURSE_STATUSES, { error: `Status must be one of: ${COURSE_STATUSES.join(', ')}.` }).optional(),
    certifying: booleanFilter.optional(),
    media_type: z.enum([...LESSON_MEDIA_TYPES, 'resource'], { error: 'Media type must be video, pdf, image or resource.' }).optional(),
  },
  COURSE_SORT_FIELDS,
);
const enrolmentListQuery = listQuerySchema(
  {
    user_id: uuidFilter('User id'),
    course_id: uuidFilter('Course id'),
    organisation_id: uuidFilter('Organisation id'),
    status: z.enum(ENROLMENT_STATUSES, { error: `Status must be one of: ${ENROLMENT_STATUSES.join(', ')}.` }).optional(),
  },
  ENROLMENT_SORT_FIELDS,
);
const certificationListQuery = listQuerySchema(
  {
    status: z.enum(CERTIFICATION_STATUSES, { error: 'Status must be active or expired.' }).optional(),
    course_id: uuidFilter('Course id'),
    user_id: uuidFilter('User id'),
    organisation_id: uuidFilter('Organisation id'),
    expiring_within_days: z.coerce.number().int().min(0).max(3650).optional(),
  },
  CERTIFICATION_SORT_FIELDS,
);
const assignmentListQuery = listQuerySchema(
  {
    user_id: uuidFilter('User id'),
    course_id: uuidFilter('Course id'),
    organisation_id: uuidFilter('Organisation id'),
    status: z.enum(ASSIGNMENT_STATUSES, { error: `Status must be one of: ${ASSIGNMENT_STATUSES.join(', ')}.` }).optional(),
    overdue: booleanFilter.optional(),
  },
  ASSIGNMENT_SORT_FIELDS,
);
/**
 * The CSV links carry the screen's filters as plain query parameters: an empty one means "any", and
 * `q` is the search, as in the list's JSON filter.
 */
const plainFilters = <T extends z.ZodType>(schema: T) =>
  z.preprocess((query) => {
    if (!query || typeof query !== 'object') return query;
    const kept = Object.fromEntries(Object.entries(query as Record<string, unknown>).filter(([, value]) => value !== ''));
    if ('q' in kept && !('search' in kept)) {
      kept.search = kept.q;
      delete kept.q;
    }
    return kept;
  }, schema);
const courseExportQuery = plainFilters(courseListQuery);
const certificationExportQuery = plainFilters(certificationListQuery);
const matrixQuery = z.object({ organisation_id: uuidFilter('Organisation id') }).strict();
const codeParam = z
  .object({
    code: z
      .string()
      .min(1)
      .max(40)
      .regex(/^[A-Za-z0-9-]+$/, 'A verification code is letters, digits and dashes.'),
  })
  .strict();

/** Answers of files (CSV, PDF): documented, never serialized. */
const fileAnswer = (description: string) => z.unknown().meta({ description });

const COURSE_CSV: CsvColumns<CourseRow> = [
  ['id', (r) => r.id],
  ['title', (r) => r.title],
  ['level', (r) => r.level],
  ['audience', (r) => r.audience.join(' ')],
  ['product_categories', (r) => r.product_categories.join('; ')],
  ['estimated_minutes', (r) => r.estimated_minutes],
  ['certifying', (r) => (r.certifying ? 'yes' : 'no')],
  ['validity_days', (r) => r.validity_days],
  ['pass_mark', (r) => r.pass_mark],
  ['attempts_allowed', (r) => r.attempts_allowed],
  ['status', (r) => r.status],
  ['version', (r) => r.version],
  ['lessons', (r) => r.lesson_count],
  ['questions', (r) => r.question_count],
  ['my_status', (r) => r.my_status],
  ['updated_at', (r) => r.updated_at],
];
const CERTIFICATION_CSV: CsvColumns<CertificationRow> = [
  ['id', (r) => r.id],
  ['user_name', (r) => r.user_name],
  ['user_email', (r) => r.user_email],
  ['organisation', (r) => r.organisation_name],
  ['course_title', (r) => r.course_title],
  ['course_version', (r) => r.course_version],
  ['issued_at', (r) => r.issued_at],
  ['expires_at', (r) => r.expires_at],
  ['status', (r) => r.status],
  ['verification_code', (r) => r.verification_code],
  ['renewals', (r) => r.renewals],
];

export async function learningRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads, config } = services;
  const tags = ['learning'];
  const verifications = new AttemptLimit(
    services.redis,
    `${config.REDIS_PREFIX}:certificate-verifications`,
    VERIFICATIONS_PER_MINUTE,
    60,
    (seconds) => `Too many verifications from this address. Try again in ${seconds} seconds.`,
  );

  const viewerOf = (request: FastifyRequest): LearningViewer => {
    const p = request.principal;
    return {
      userId: p.id,
      role: p.role,
      organisationId: p.organisationId,
      seesAll: seesAllOrganisations(p.role),
      manages: hasPermission(p, 'Learning.Update'),
      isOwner: p.role === 'partner' || p.role === 'distributor',
    };
  };
  const command = <S, C, E extends DomainEvent>(request: FastifyRequest, decider: Decider<S, C, E>, id: string, cmd: C) =>
    runCommand(services, decider, id, cmd, metadataFromRequest(request));

  /** A course the caller may see (learners: published and offered to their role), or 404. */
  const visibleCourse = async (request: FastifyRequest, id: string, db: Queryable = pool) => {
    const course = await findCourse(db, viewerOf(request), id);
    if (!course) throw new HttpError(404, 'NOT_FOUND', COURSE_MESSAGES.notFound);
    return course;
  };
  const adminCourse = async (request: FastifyRequest, id: string, db: Queryable = pool) => (await visibleCourse(request, id, db)) as CourseAdminView;
  /** The course's state from its stream, for a command (404 when it does not exist or is hidden from the caller). */
  const liveCourse = async (request: FastifyRequest, id: string) => {
    await visibleCourse(request, id);
    const state = await courseState(services, id);
    if (state.status === 'none') throw new HttpError(404, 'NOT_FOUND', COURSE_MESSAGES.notFound);
    return state;
  };
  const standing = async (request: FastifyRequest, courseId: string, db: Queryable = pool) => {
    const enrolment = await findEnrolment(db, request.principal.id, courseId);
    if (!enrolment) throw new HttpError(404, 'NOT_ENROLLED', ENROLMENT_MESSAGES.notEnrolled);
    return enrolment;
  };

  // ---- courses ----

  app.get(
    '/courses',
    {
      schema: {
        tags,
        summary: 'The course catalogue: learners see published courses for their role (with their own status), admins every course',
        querystring: courseListQuery,
        response: { 200: courseListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listCourses(
        reads,
        viewerOf(request),
        { ...q.filters, search: q.search, ids: q.ids },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      return sendList(reply, 'courses', q, rows, total) as z.infer<typeof courseListAnswer>;
    },
  );

  app.get(
    '/courses/export',
    {
      schema: { tags, summary: 'CSV of the catalogue with the same filters as the list', querystring: courseExportQuery, response: { 200: fileAnswer('CSV') } },
    },
    async (request, reply) => {
      const q = request.query;
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="courses-${new Date().toISOString().slice(0, 10)}.csv"`);
      reply.header('cache-control', 'private, no-store');
      return sendCsv(reply, csvLines(COURSE_CSV, allCourses(reads, viewerOf(request), { ...q.filters, search: q.search })));
    },
  );

  app.post(
    '/courses',
    {
      schema: {
        tags,
        summary: 'Create a course (draft, or published as version 1) with its lessons and quiz',
        body: courseBody,
        response: courseCreatedAnswers,
      },
    },
    async (request, reply) => {
      const id = newRecordId(request, 'course');
      const created = { id, location: `/api/courses/${id}` };
      const read = async () => recordAnswer(await adminCourse(request, id), COURSE_MESSAGES.created);
      const earlier = await earlierCreation(services, request, courses.streamId(id), id);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      await createCourse(services, id, request.body, metadataFromRequest(request));
      return answerCreated(services, reply, created, read);
    },
  );

  app.get(
    '/courses/:id',
    {
      schema: {
        tags,
        summary: 'One course with its lessons and quiz; learners get no right answers or explanations, and their own standing',
        params: uuidParam,
        response: { 200: courseAnswer },
      },
    },
    async (request) => recordAnswer(await visibleCourse(request, request.params.id, reads)),
  );

  app.put(
    '/courses/:id',
    {
      schema: {
        tags,
        summary: 'Change a course; a published course publishes its next version (earned certifications stay)',
        params: uuidParam,
        body: courseUpdateBody,
        response: { 200: courseAdminAnswer },
      },
    },
    async (request) => {
      const course = await liveCourse(request, request.params.id);
      await command(request, courses, course.id, { type: 'ChangeCourse', content: contentFrom(request.body, course.content) });
      return recordAnswer(await adminCourse(request, course.id), COURSE_MESSAGES.updated);
    },
  );

  app.post(
    '/courses/:id/publish',
    { schema: { tags, summary: 'Publish a draft (version 1) or an archived course again', params: uuidParam, response: { 200: courseAdminAnswer } } },
    async (request) => {
      const course = await liveCourse(request, request.params.id);
      await command(request, courses, course.id, { type: 'PublishCourse' });
      return recordAnswer(await adminCourse(request, course.id), COURSE_MESSAGES.published);
    },
  );

  app.post(
    '/courses/:id/archive',
    {
      schema: {
        tags,
        summary: 'Withdraw a course from the catalogue; certifications earned stay valid',
        params: uuidParam,
        body: courseArchiveBody,
        response: { 200: courseAdminAnswer },
      },
    },
    async (request) => {
      const course = await liveCourse(request, request.params.id);
      await command(request, courses, course.id, { type: 'ArchiveCourse', reason: request.body.reason ?? null });
      return recordAnswer(await adminCourse(request, course.id), COURSE_MESSAGES.archived);
    },
  );

  app.get(
    '/courses/:id/history',
    { schema: { tags, summary: "A course's status history (draft, published, archived)", params: uuidParam, response: { 200: courseHistoryAnswer } } },
    async (request) => {
      const course = await adminCourse(request, request.params.id, reads);
      return { success: true as const, data: await statusHistoryOf(reads, 'courses', course.id) };
    },
  );

  const versionsAnswer = z.object({
    success: z.literal(true),
    data: z.array(
      z.object({
        version: z.number().int(),
        title: z.string(),
        published_at: z.string().nullable(),
        published_by: z.string().nullable(),
        published_by_name: z.string().nullable(),
        content: z.object({}).loose(),
      }),
    ),
  });
  app.get(
    '/courses/:id/versions',
    {
      schema: {
        tags: ['versions'],
        summary: 'Every published version of a course, newest first, as it was published',
        params: uuidParam,
        response: { 200: versionsAnswer },
      },
    },
    async (request) => {
      const course = await adminCourse(request, request.params.id, reads);
      return { success: true as const, data: (await courseVersions(reads, course.id)).map((version) => ({ ...version, content: { ...version.content } })) };
    },
  );

  // ---- learning: enrolment, lessons, attempts ----

  app.post(
    '/courses/:id/enrol',
    { schema: { tags, summary: 'Enrol yourself in a published course (again: nothing changes)', params: uuidParam, response: { 200: enrolmentAnswer } } },
    async (request) => {
      const course = await liveCourse(request, request.params.id);
      const p = request.principal;
      await command(request, enrolments, enrolmentIdOf(p.id, course.id), {
        type: 'Enrol',
        enrolmentId: enrolmentIdOf(p.id, course.id),
        userId: p.id,
        userRole: p.role,
        organisationId: p.organisationId,
        course: snapshotOf(course),
      });
      return recordAnswer(await standing(request, course.id), ENROLMENT_MESSAGES.enrolled);
    },
  );

  app.get(
    '/courses/:id/progress',
    { schema: { tags, summary: 'Your enrolment in the course: lessons done, progress, attempts', params: uuidParam, response: { 200: enrolmentAnswer } } },
    async (request) => {
      await visibleCourse(request, request.params.id, reads);
      return recordAnswer(await standing(request, request.params.id, reads));
    },
  );

  app.post(
    '/courses/:id/progress',
    { schema: { tags, summary: 'Mark a lesson done (or not done again)', params: uuidParam, body: progressBody, response: { 200: enrolmentAnswer } } },
    async (request) => {
      const course = await liveCourse(request, request.params.id);
      await command(request, enrolments, enrolmentIdOf(request.principal.id, course.id), {
        type: 'MarkLesson',
        lessonId: request.body.lesson_id,
        done: request.body.done ?? true,
        course: snapshotOf(course),
      });
      return recordAnswer(await standing(request, course.id), ENROLMENT_MESSAGES.progress);
    },
  );

  app.get(
    '/courses/:id/attempts',
    { schema: { tags, summary: 'Your graded attempts at the quiz, newest first, with explanations', params: uuidParam, response: { 200: attemptListAnswer } } },
    async (request, reply) => {
      await visibleCourse(request, request.params.id, reads);
      const rows = await attemptsOf(reads, request.principal.id, request.params.id);
      return sendList(reply, 'attempts', { reactAdmin: true, offset: 0, limit: rows.length || 1, page: 1 }, rows, rows.length) as z.infer<
        typeof attemptListAnswer
      >;
    },
  );

  app.post(
    '/courses/:id/attempts',
    {
      schema: {
        tags,
        summary:
          'Submit your answers (one list of chosen choice indices per question); answers the score, pass or fail, and per question right or wrong with its explanation',
        params: uuidParam,
        body: attemptBody,
        response: { 200: attemptAnswer },
      },
    },
    async (request) => {
      const course = await liveCourse(request, request.params.id);
      await standing(request, course.id);
      const { attemptId } = await submitAttempt(
        services,
        { userId: request.principal.id, course, answers: request.body.answers },
        metadataFromRequest(request),
      );
      const [attempt] = await attemptsOf(pool, request.principal.id, course.id, attemptId);
      if (!attempt) throw new HttpError(503, 'NOT_READY', 'The attempt is saved; read it again in a moment.');
      return recordAnswer(attempt, attempt.passed ? 'Passed' : 'Not passed');
    },
  );

  app.get(
    '/learning/enrolments',
    {
      schema: {
        tags,
        summary: "Enrolments with progress: yours; an organisation owner's people's; all for those who see every organisation",
        querystring: enrolmentListQuery,
        response: { 200: enrolmentListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listEnrolments(
        reads,
        viewerOf(request),
        { ...q.filters, search: q.search, ids: q.ids },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      return sendList(reply, 'enrolments', q, rows, total) as z.infer<typeof enrolmentListAnswer>;
    },
  );

  // ---- certifications ----

  app.get(
    '/certifications',
    {
      schema: {
        tags,
        summary: "Certifications: yours; an organisation owner's people's; all for those who see every organisation",
        querystring: certificationListQuery,
        response: { 200: certificationListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listCertifications(
        reads,
        viewerOf(request),
        { ...q.filters, search: q.search, ids: q.ids },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      return sendList(reply, 'certifications', q, rows, total) as z.infer<typeof certificationListAnswer>;
    },
  );

  app.get(
    '/certifications/export',
    {
      schema: {
        tags,
        summary: 'CSV of the certifications the caller sees, with the same filters as the list',
        querystring: certificationExportQuery,
        response: { 200: fileAnswer('CSV') },
      },
    },
    async (request, reply) => {
      const q = request.query;
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="certifications-${new Date().toISOString().slice(0, 10)}.csv"`);
      reply.header('cache-control', 'private, no-store');
      const recorded = () =>
        recordAuditEntry(
          services.store,
          { type: 'ExportDownloaded.v1', data: { userId: request.principal.id, export: 'certifications', filters: exportFilters(request) } },
          auditActorOf(request),
        );
      return sendCsv(
        reply,
        recordedWhenDone(csvLines(CERTIFICATION_CSV, allCertifications(reads, viewerOf(request), { ...q.filters, search: q.search })), recorded),
      );
    },
  );

  app.get(
    '/certifications/verify/:code',
    {
      schema: {
        tags,
        summary: 'Public: whether a verification code belongs to a valid certification, with its course and dates (nothing about the person)',
        params: codeParam,
        response: { 200: verificationAnswer },
      },
    },
    async (request) => {
      await verifications.consume(request.ip);
      return verifyCertification(reads, request.params.code, new Date());
    },
  );

  const loadCertification = async (request: FastifyRequest, id: string, db: Queryable = pool) => {
    const found = await findCertification(db, viewerOf(request), id);
    if (!found) throw new HttpError(404, 'NOT_FOUND', ENROLMENT_MESSAGES.certificationNotFound);
    return found;
  };

  app.get(
    '/certifications/:id',
    {
      schema: {
        tags,
        summary: 'One certification (its holder, the holder’s organisation owner, those who see every organisation)',
        params: uuidParam,
        response: { 200: certificationAnswer },
      },
    },
    async (request) => recordAnswer(await loadCertification(request, request.params.id, reads)),
  );

  app.get(
    '/certifications/:id/certificate.pdf',
    {
      schema: { tags, summary: 'The certificate as a PDF: name, course, dates and verification code', params: uuidParam, response: { 200: fileAnswer('PDF') } },
    },
    async (request, reply) => {
      const certification = await loadCertification(request, request.params.id, reads);
      const origin = `${request.protocol}://${request.host}`;
      const pdf = await certificatePdf({
        holder: certification.user_name,
        organisation: certification.organisation_name,
        course: certification.course_title,
        issuedAt: certification.issued_at,
        expiresAt: certification.expires_at,
        verificationCode: certification.verification_code,
        status: certification.status,
        verifyUrl: `${origin}/verify-certificate/${certification.verification_code}`,
      });
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `inline; filename="certificate-${certification.verification_code}.pdf"`);
      reply.header('cache-control', 'private, no-store');
      return reply.send(pdf);
    },
  );

  // ---- assignments, the owner's matrix, the admins' report ----

  const assignmentById = async (request: FastifyRequest, id: string, db: Queryable = pool) => {
    const { rows } = await listAssignments(db, viewerOf(request), { ids: [id] }, { offset: 0, limit: 1 });
    if (!rows[0]) throw new HttpError(404, 'NOT_FOUND', ASSIGNMENT_MESSAGES.notFound);
    return rows[0];
  };

  app.get(
    '/learning/assignments',
    {
      schema: {
        tags,
        summary: "Assigned courses with due dates: an owner's organisation's, a member's own, all for those who see every organisation",
        querystring: assignmentListQuery,
        response: { 200: assignmentListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listAssignments(reads, viewerOf(request), { ...q.filters, ids: q.ids }, { offset: q.offset, limit: q.limit, sort: q.sort });
      return sendList(reply, 'assignments', q, rows, total) as z.infer<typeof assignmentListAnswer>;
    },
  );

  app.get(
    '/learning/assignments/:id',
    { schema: { tags, summary: 'One assignment', params: uuidParam, response: { 200: assignmentAnswer } } },
    async (request) => recordAnswer(await assignmentById(request, request.params.id, reads)),
  );

  app.post(
    '/learning/assignments',
    {
      schema: {
        tags,
        summary: 'Assign a published course to a person of your organisation (or yourself) with a due date (organisation owners)',
        body: assignmentBody,
        response: assignmentCreatedAnswers,
      },
    },
    async (request, reply) => {
      const id = newRecordId(request, 'course-assignment');
      const created = { id, location: `/api/learning/assignments/${id}` };
      const read = async () => recordAnswer(await assignmentById(request, id), ASSIGNMENT_MESSAGES.assigned);
      const earlier = await earlierCreation(services, request, assignments.streamId(id), id);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      const { user_id: userId, course_id: courseId, due_date: dueDate, note } = request.body;
      const memberOrganisationId = await learnerOrganisation(pool, userId);
      if (!memberOrganisationId || memberOrganisationId !== request.principal.organisationId)
        throw new HttpError(404, 'NOT_FOUND', 'There is no such person in your organisation.', [
          { field: 'user_id', message: 'Choose a person of your organisation.' },
        ]);
      const course = await courseState(services, courseId);
      if (course.status === 'none')
        throw new HttpError(404, 'NOT_FOUND', COURSE_MESSAGES.notFound, [{ field: 'course_id', message: COURSE_MESSAGES.notFound }]);
      if (await hasOpenAssignment(pool, userId, courseId)) throw new HttpError(409, 'ALREADY_ASSIGNED', 'This course is already assigned to this person.');
      await command(request, assignments, id, {
        type: 'AssignCourse',
        assignmentId: id,
        actorOrganisationId: request.principal.organisationId,
        memberOrganisationId,
        userId,
        courseId,
        courseStatus: course.status,
        dueDate,
        note: note ?? null,
      });
      return answerCreated(services, reply, created, read);
    },
  );

  app.post(
    '/learning/assignments/:id/cancel',
    { schema: { tags, summary: 'Withdraw an open assignment (its organisation owner)', params: uuidParam, response: { 200: assignmentAnswer } } },
    async (request) => {
      const assignment = await assignmentById(request, request.params.id);
      await command(request, assignments, assignment.id, { type: 'CancelAssignment', actorOrganisationId: request.principal.organisationId });
      return recordAnswer(await assignmentById(request, assignment.id), ASSIGNMENT_MESSAGES.cancelled);
    },
  );

  app.get(
    '/learning/matrix',
    {
      schema: {
        tags,
        summary:
          'The training matrix of an organisation: its people × courses, with status, due dates and overdue assignments (owners: their own; admins name organisation_id)',
        querystring: matrixQuery,
        response: { 200: matrixAnswer },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const organisationId = viewer.isOwner ? viewer.organisationId : request.query.organisation_id;
      if (!organisationId)
        throw new HttpError(400, 'VALIDATION_ERROR', 'Name the organisation (organisation_id).', [
          { field: 'organisation_id', message: 'Required for administrators.' },
        ]);
      if (isSubUserRole(viewer.role)) throw new HttpError(403, 'INSUFFICIENT_PERMISSIONS', 'Only the organisation owner sees the training matrix.');
      return { success: true as const, message: 'Training matrix', data: await trainingMatrix(reads, organisationId) };
    },
  );

  app.get(
    '/learning/reports',
    { schema: { tags, summary: 'Completions, pass rates, attempts and average scores per course (admins)', response: { 200: reportAnswer } } },
    async () => ({
      success: true as const,
      message: 'Course report',
      data: { courses: await courseReport(reads) },
    }),
  );

  // ---- lesson media ----

  app.post(
    '/learning/media',
    {
      schema: {
        tags,
        summary: 'Upload one lesson file (field `file`: MP4 or WEBM video, PDF, or an image, at most 10 MB); put the answered `media` in a lesson',
        consumes: ['multipart/form-data'],
        response: { 201: mediaUploadAnswer },
      },
    },
    async (request, reply) => {
      const form = await readMultipart(request, { file: MEDIA_RULE });
      if (Object.keys(form.fields).length)
        throw new HttpError(400, 'VALIDATION_ERROR', 'Send only the file.', [{ field: Object.keys(form.fields).join(','), message: 'Send only the file.' }]);
      const file = form.files.file?.[0];
      if (!file) throw new HttpError(400, 'VALIDATION_ERROR', 'Choose a file.', [{ field: 'file', message: 'Choose a video, PDF or image.' }]);
      const name = await storeUpload(config.UPLOAD_DIR, file, 'private');
      reply.status(201);
      return {
        success: true as const,
        message: 'File uploaded',
        data: {
          media: { kind: 'upload' as const, file: name, type: mediaTypeOf(file.type), file_name: file.originalName },
          url: `/api/learning/media/${name}`,
          size: file.bytes.length,
          content_type: file.type,
        },
      };
    },
  );

  app.get(
    '/learning/media/:name',
    { schema: { tags, summary: 'A lesson file', params: uploadNameParam, response: { 200: fileAnswer('The file') } } },
    async (request, reply) => sendUpload(reply, config.UPLOAD_DIR, request.params.name, 'private'),
  );
}
