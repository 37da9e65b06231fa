import type {
  AssignmentRow,
  AttemptRow,
  CertificationRow,
  CourseAdminView,
  CourseLearnerView,
  CourseRow,
  EnrolmentRow,
  LessonView,
  MatrixAnswer,
  MyCourseStanding,
  QuestionAdminView,
  ReportRow,
} from '../contracts/learning';
import type { AssignmentEvent } from '../domain/learning/assignments';
import type { CourseContent, CourseEvent, Question } from '../domain/learning/courses';
import type { EnrolmentEvent } from '../domain/learning/enrolments';
import { LEARNER_ROLES, type LessonMedia } from '../domain/learning/vocabulary';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import { pageOf } from './paging';
import type { Projection } from './projection';

type Event = CourseEvent | EnrolmentEvent | AssignmentEvent;

// ---------------------------------------------------------------------------------------------
// apply

const mediaTypesOf = (content: CourseContent) =>
  [
    ...new Set(
      content.lessons.flatMap((l) => (l.media && 'type' in l.media && l.media.type ? [l.media.type] : l.media?.kind === 'resource' ? ['resource'] : [])),
    ),
  ].sort();

async function writeCourse(
  db: PoolClient,
  courseId: string,
  content: CourseContent,
  at: string,
  changes: { status?: string; version?: number; publishedBy?: string | null },
) {
  await db.query(
    `UPDATE courses SET title = $2, summary = $3, audience = $4, product_categories = $5, level = $6, estimated_minutes = $7, certifying = $8, validity_days = $9,
       pass_mark = $10, attempts_allowed = $11, shuffle_questions = $12, lesson_count = $13, question_count = $14, media_types = $15, quiz = $16, updated_at = $17,
       status = coalesce($18, status), version = coalesce($19, version), published_at = CASE WHEN $19::int IS NULL THEN published_at ELSE $17 END
     WHERE id = $1`,
    [
      courseId,
      content.title,
      content.summary,
      content.audience,
      content.productCategories,
      content.level,
      content.estimatedMinutes,
      content.certifying,
      content.validityDays,
      content.passMark,
      content.attemptsAllowed,
      content.shuffleQuestions,
      content.lessons.length,
      content.quiz.length,
      mediaTypesOf(content),
      JSON.stringify(content.quiz),
      at,
      changes.status ?? null,
      changes.version ?? null,
    ],
  );
  await db.query('DELETE FROM course_lessons WHERE course_id = $1', [courseId]);
  if (content.lessons.length) {
    await db.query(
      `INSERT INTO course_lessons (course_id, id, position, title, body, media)
       SELECT $1, id, position, title, body, media FROM json_to_recordset($2::json) AS t(id uuid, position int, title text, body text, media jsonb)`,
      [courseId, JSON.stringify(content.lessons.map((l, position) => ({ id: l.id, position, title: l.title, body: l.body, media: l.media })))],
    );
  }
  if (changes.version !== undefined) {
    await db.query('INSERT INTO course_versions (course_id, version, content, published_at, published_by) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
      courseId,
      changes.version,
      JSON.stringify(content),
      at,
      changes.publishedBy ?? null,
    ]);
  }
}

/**
 * An open assignment of the course to the person is done once they pass it (or finish every lesson of a
 * course without a quiz). Assigned after a pass, it is done at once, unless the certification that pass
 * earned has expired: then it asks for the renewal.
 */
async function completeAssignments(db: PoolClient, userId: string, courseId: string, at: string, onlyIfLessonsDone: boolean) {
  const lessonsCondition = onlyIfLessonsDone
    ? `AND EXISTS (SELECT 1 FROM courses c JOIN enrolments e ON e.course_id = c.id AND e.user_id = $1
         WHERE c.id = $2 AND c.question_count = 0 AND c.lesson_count > 0
           AND (SELECT count(*) FROM course_lessons l WHERE l.course_id = c.id AND l.id = ANY (e.completed_lessons)) >= c.lesson_count)`
    : '';
  await db.query(
    `UPDATE learning_assignments SET status = 'completed', completed_at = $3 WHERE user_id = $1 AND course_id = $2 AND status = 'open' ${lessonsCondition}`,
    [userId, courseId, at],
  );
}

/** read.courses, course_lessons, course_versions, enrolments, course_attempts, certifications and learning_assignments. */
export const learningProjection: Projection = {
  name: 'learning',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = asDomainEvent<Event>(recorded);
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'CourseCreated.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO courses (id, title, summary, audience, product_categories, level, estimated_minutes, certifying, validity_days, pass_mark, attempts_allowed,
             shuffle_questions, status, version, lesson_count, question_count, media_types, quiz, created_by, created_at, updated_at)
           VALUES ($1, '', '', '{}', '{}', 'beginner', 1, false, NULL, 0, NULL, false, 'draft', 0, 0, 0, '{}', '[]', $2, $3, $3) ON CONFLICT (id) DO NOTHING`,
          [d.courseId, d.createdBy, at],
        );
        await writeCourse(db, d.courseId, d.content, at, {});
        return;
      }
      case 'CourseDraftChanged.v1':
        await writeCourse(db, event.data.courseId, event.data.content, at, {});
        return;
      case 'CoursePublished.v1':
        await writeCourse(db, event.data.courseId, event.data.content, at, {
          status: 'published',
          version: event.data.version,
          publishedBy: recorded.metadata.actorId,
        });
        return;
      case 'CourseRevised.v1':
        await writeCourse(db, event.data.courseId, event.data.content, at, { version: event.data.version, publishedBy: recorded.metadata.actorId });
        return;
      case 'CourseArchived.v1':
        await db.query(`UPDATE courses SET status = 'archived', updated_at = $2 WHERE id = $1`, [event.data.courseId, at]);
        return;

      case 'EnrolmentStarted.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO enrolments (id, user_id, organisation_id, course_id, course_version, enrolled_at, last_activity_at) VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (id) DO NOTHING`,
          [d.enrolmentId, d.userId, d.organisationId, d.courseId, d.courseVersion, at],
        );
        return;
      }
      case 'LessonCompleted.v1': {
        const { rows } = await db.query<{ user_id: string }>(
          `UPDATE enrolments SET completed_lessons = CASE WHEN $2 = ANY (completed_lessons) THEN completed_lessons ELSE array_append(completed_lessons, $2::uuid) END, last_activity_at = $3
           WHERE id = $1 RETURNING user_id`,
          [event.data.enrolmentId, event.data.lessonId, at],
        );
        if (rows[0]) await completeAssignments(db, rows[0].user_id, event.data.courseId, at, true);
        return;
      }
      case 'LessonReopened.v1':
        await db.query('UPDATE enrolments SET completed_lessons = array_remove(completed_lessons, $2::uuid), last_activity_at = $3 WHERE id = $1', [
          event.data.enrolmentId,
          event.data.lessonId,
          at,
        ]);
        return;
      case 'AttemptSubmitted.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO course_attempts (id, enrolment_id, user_id, course_id, course_version, attempt_number, attempts_allowed, score, pass_mark, passed, answers, results, submitted_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (id) DO NOTHING`,
          [
            d.attemptId,
            d.enrolmentId,
            d.userId,
            d.courseId,
            d.courseVersion,
            d.attemptNumber,
            d.attemptsAllowed,
            d.score,
            d.passMark,
            d.passed,
            JSON.stringify(d.answers),
            JSON.stringify(d.results),
            at,
          ],
        );
        await db.query(
          `UPDATE enrolments SET
             attempts_used = CASE WHEN $3 THEN 0 WHEN course_version = $2 THEN attempts_used + 1 ELSE 1 END,
             course_version = $2, attempts_total = attempts_total + 1, best_score = greatest(best_score, $4),
             passed_at = CASE WHEN $3 THEN $5::timestamptz ELSE passed_at END, last_activity_at = $5
           WHERE id = $1`,
          [d.enrolmentId, d.courseVersion, d.passed, d.score, at],
        );
        if (d.passed) await completeAssignments(db, d.userId, d.courseId, at, false);
        return;
      }
      case 'CertificationGranted.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO certifications (id, user_id, organisation_id, course_id, course_title, course_version, issued_at, expires_at, status, verification_code, enrolment_id, updated_at)
           VALUES ($1, $2, $3, $4, coalesce((SELECT title FROM courses WHERE id = $4), ''), $5, $6, $7, 'active', $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
          [d.certificationId, d.userId, d.organisationId, d.courseId, d.courseVersion, d.issuedAt, d.expiresAt, d.verificationCode, d.enrolmentId, at],
        );
        await linkLatestAttempt(db, d.enrolmentId, d.certificationId);
        return;
      }
      case 'CertificationRenewed.v1': {
        const d = event.data;
        await db.query(
          `UPDATE certifications SET issued_at = $2, expires_at = $3, status = 'active', renewals = renewals + 1, course_version = $4,
             course_title = coalesce((SELECT title FROM courses WHERE id = course_id), course_title), updated_at = $5 WHERE id = $1`,
          [d.certificationId, d.issuedAt, d.expiresAt, d.courseVersion, at],
        );
        await linkLatestAttempt(db, d.enrolmentId, d.certificationId);
        return;
      }
      case 'CertificationExpired.v1':
        await db.query(`UPDATE certifications SET status = 'expired', updated_at = $2 WHERE id = $1 AND expires_at = $3`, [
          event.data.certificationId,
          at,
          event.data.expiresAt,
        ]);
        return;
      case 'CertificationExpiryReminderSent.v1':
        return;

      case 'CourseAssigned.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO learning_assignments (id, organisation_id, user_id, course_id, due_date, note, assigned_by, assigned_at, status, completed_at)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN done THEN 'completed' ELSE 'open' END, CASE WHEN done THEN $8::timestamptz END
           FROM (SELECT EXISTS (
             SELECT 1 FROM enrolments e JOIN courses c ON c.id = e.course_id
             WHERE e.user_id = $3 AND e.course_id = $4 AND e.passed_at IS NOT NULL
               AND (NOT c.certifying OR EXISTS (SELECT 1 FROM certifications cert WHERE cert.enrolment_id = e.id AND cert.status = 'active'))) AS done) AS t
           ON CONFLICT (id) DO NOTHING`,
          [d.assignmentId, d.organisationId, d.userId, d.courseId, d.dueDate, d.note, d.assignedBy, at],
        );
        return;
      }
      case 'AssignmentCancelled.v1':
        await db.query(`UPDATE learning_assignments SET status = 'cancelled' WHERE id = $1 AND status = 'open'`, [event.data.assignmentId]);
        return;
      case 'AssignmentReminderSent.v1':
        return;
      default:
        return;
    }
  },
};

async function linkLatestAttempt(db: PoolClient, enrolmentId: string, certificationId: string) {
  await db.query(
    'UPDATE course_attempts SET certification_id = $2 WHERE id = (SELECT id FROM course_attempts WHERE enrolment_id = $1 AND passed ORDER BY submitted_at DESC, attempt_number DESC LIMIT 1)',
    [enrolmentId, certificationId],
  );
}

// ---------------------------------------------------------------------------------------------
// Who is asking

export interface LearningViewer {
  userId: string;
  role: string;
  organisationId: string | null;
  /** Admins, support and manufacturers: every organisation's people. */
  seesAll: boolean;
  /** Learning.Update: drafts, the whole quiz. */
  manages: boolean;
  /** The partner or distributor account itself: its organisation's people. */
  isOwner: boolean;
}

/** Which people's records the viewer reads: `$n` placeholders added to `params`. */
function peopleScope(viewer: LearningViewer, alias: string, params: unknown[]): string {
  if (viewer.seesAll) return 'TRUE';
  if (viewer.isOwner && viewer.organisationId) {
    params.push(viewer.organisationId);
    return `${alias}.organisation_id = $${params.length}`;
  }
  params.push(viewer.userId);
  return `${alias}.user_id = $${params.length}`;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();
const day = (value: Date | string) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

// ---------------------------------------------------------------------------------------------
// Courses

/** The enrolment's status, from its row `e` and its course `c`. */
const ENROLMENT_STATUS_SQL = `CASE
  WHEN e.passed_at IS NOT NULL THEN 'passed'
  WHEN c.question_count > 0 AND c.attempts_allowed IS NOT NULL AND e.course_version = c.version AND e.attempts_used >= c.attempts_allowed THEN 'failed'
  WHEN c.lesson_count > 0 AND (SELECT count(*) FROM read.course_lessons l WHERE l.course_id = c.id AND l.id = ANY (e.completed_lessons)) >= c.lesson_count THEN 'completed'
  WHEN cardinality(e.completed_lessons) > 0 THEN 'in_progress'
  ELSE 'enrolled' END`;
const PROGRESS_SQL = `CASE WHEN c.lesson_count = 0 THEN 0 ELSE floor(100.0 * (SELECT count(*) FROM read.course_lessons l WHERE l.course_id = c.id AND l.id = ANY (e.completed_lessons)) / c.lesson_count)::int END`;
const ATTEMPTS_LEFT_SQL = `CASE WHEN c.attempts_allowed IS NULL THEN NULL WHEN e.course_version = c.version THEN greatest(c.attempts_allowed - e.attempts_used, 0) ELSE c.attempts_allowed END`;

export const COURSE_SORT_FIELDS = ['title', 'level', 'estimated_minutes', 'updated_at', 'published_at', 'status'] as const;
export type CourseSortField = (typeof COURSE_SORT_FIELDS)[number] | 'id';

export interface CourseFilters {
  search?: string;
  ids?: string[];
  audience?: string;
  product_category?: string;
  level?: string;
  status?: string;
  certifying?: boolean;
  media_type?: string;
}

interface CourseDbRow {
  id: string;
  title: string;
  summary: string;
  audience: string[];
  product_categories: string[];
  level: string;
  estimated_minutes: number;
  certifying: boolean;
  validity_days: number | null;
  pass_mark: number;
  attempts_allowed: number | null;
  shuffle_questions: boolean;
  status: string;
  version: number;
  lesson_count: number;
  question_count: number;
  media_types: string[];
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  my_status: string | null;
  my_progress_percent: number | null;
  my_due_date: Date | string | null;
}

const courseRowOf = (r: CourseDbRow): CourseRow => ({
  id: r.id,
  title: r.title,
  summary: r.summary,
  audience: r.audience as CourseRow['audience'],
  product_categories: r.product_categories,
  level: r.level as CourseRow['level'],
  estimated_minutes: r.estimated_minutes,
  certifying: r.certifying,
  validity_days: r.validity_days,
  pass_mark: r.pass_mark,
  attempts_allowed: r.attempts_allowed,
  shuffle_questions: r.shuffle_questions,
  status: r.status as CourseRow['status'],
  version: r.version,
  has_draft_changes: false,
  lesson_count: r.lesson_count,
  question_count: r.question_count,
  media_types: r.media_types,
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
  published_at: iso(r.published_at),
  my_status: r.my_status as CourseRow['my_status'],
  my_progress_percent: r.my_progress_percent,
  my_due_date: r.my_due_date === null ? null : day(r.my_due_date),
});

function courseQuery(viewer: LearningViewer, filters: CourseFilters, params: unknown[]) {
  const where: string[] = [];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const me = add(viewer.userId);
  if (!viewer.manages) {
    where.push(`c.status = 'published'`);
    // Learners see the courses offered to their role; support and manufacturers read the whole catalogue.
    if (!viewer.seesAll) where.push(`${add(viewer.role)} = ANY (c.audience)`);
  }
  if (filters.ids) where.push(`c.id = ANY (${add(filters.ids)}::uuid[])`);
  if (filters.audience) where.push(`${add(filters.audience)} = ANY (c.audience)`);
  if (filters.product_category) where.push(`${add(filters.product_category)} = ANY (c.product_categories)`);
  if (filters.level) where.push(`c.level = ${add(filters.level)}`);
  if (filters.status) where.push(`c.status = ${add(filters.status)}`);
  if (filters.certifying !== undefined) where.push(`c.certifying = ${add(filters.certifying)}`);
  if (filters.media_type) where.push(`${add(filters.media_type)} = ANY (c.media_types)`);
  if (filters.search) {
    const term = add(`%${filters.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    where.push(`(c.title ILIKE ${term} OR c.summary ILIKE ${term} OR array_to_string(c.product_categories, ' ') ILIKE ${term})`);
  }
  const from = `FROM read.courses c
    LEFT JOIN read.enrolments e ON e.course_id = c.id AND e.user_id = ${me}
    LEFT JOIN LATERAL (SELECT min(a.due_date) AS due_date FROM read.learning_assignments a WHERE a.course_id = c.id AND a.user_id = ${me} AND a.status = 'open') asg ON TRUE
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
  const select = `SELECT c.id, c.title, c.summary, c.audience, c.product_categories, c.level, c.estimated_minutes, c.certifying, c.validity_days, c.pass_mark, c.attempts_allowed,
      c.shuffle_questions, c.status, c.version, c.lesson_count, c.question_count, c.media_types, c.created_at, c.updated_at, c.published_at,
      CASE WHEN e.id IS NULL THEN NULL ELSE ${ENROLMENT_STATUS_SQL} END AS my_status,
      CASE WHEN e.id IS NULL THEN NULL ELSE ${PROGRESS_SQL} END AS my_progress_percent,
      asg.due_date AS my_due_date`;
  return { select, from };
}

/** A query's `FROM … WHERE …` as pageOf takes it: the whole text as its source (its count past the last page reads the same). */
const fromClause = (from: string) => ({ from: from.replace(/^\s*FROM\s+/, ''), where: '' });

const LEVEL_ORDER = `array_position(ARRAY['beginner', 'intermediate', 'advanced'], c.level)`;

export async function listCourses(
  db: Queryable,
  viewer: LearningViewer,
  filters: CourseFilters,
  page: { offset: number; limit: number; sort?: { field: CourseSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: CourseRow[]; total: number }> {
  const params: unknown[] = [];
  const { select, from } = courseQuery(viewer, filters, params);
  const field = page.sort?.field ?? 'title';
  const order = page.sort?.order ?? 'ASC';
  const sortExpression = field === 'level' ? LEVEL_ORDER : `c.${field}`;
  const { rows, total } = await pageOf<CourseDbRow>(db, {
    ...fromClause(from),
    columns: select.replace(/^SELECT /, ''),
    order: `${sortExpression} ${order} NULLS LAST, c.title, c.id`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map(courseRowOf), total };
}

export async function* allCourses(db: Queryable, viewer: LearningViewer, filters: CourseFilters): AsyncGenerator<CourseRow> {
  const params: unknown[] = [];
  const { select, from } = courseQuery(viewer, filters, params);
  const { rows } = await db.query<CourseDbRow>(`${select} ${from} ORDER BY c.title, c.id LIMIT 10000`, params);
  for (const row of rows) yield courseRowOf(row);
}

/** Where a lesson's media is fetched: the upload's route, the link, or the resources library's file. */
const mediaUrlOf = (media: LessonMedia | null, resourceFile: string | null): string | null => {
  if (!media) return null;
  if (media.kind === 'link') return media.url;
  if (media.kind === 'upload') return `/api/learning/media/${media.file}`;
  return resourceFile ? `/api/resources/files/${resourceFile}` : null;
};

async function lessonsOf(db: Queryable, courseId: string): Promise<LessonView[]> {
  const { rows } = await db.query<{ id: string; position: number; title: string; body: string; media: LessonMedia | null; resource_file: string | null }>(
    `SELECT l.id, l.position, l.title, l.body, l.media, r.file_name AS resource_file
     FROM read.course_lessons l LEFT JOIN read.resources r ON l.media ->> 'kind' = 'resource' AND r.id::text = l.media ->> 'resource_id'
     WHERE l.course_id = $1 ORDER BY l.position`,
    [courseId],
  );
  return rows.map(({ resource_file, ...r }) => ({ ...r, media_url: mediaUrlOf(r.media, resource_file) }));
}

/**
 * One course as the viewer may see it: admins the whole quiz, everyone else the questions without
 * `correct` or `explanation` (they are never read into the learner's answer) and their own standing.
 */
export async function findCourse(db: Queryable, viewer: LearningViewer, id: string): Promise<CourseAdminView | CourseLearnerView | null> {
  const params: unknown[] = [];
  const { select, from } = courseQuery(viewer, { ids: [id] }, params);
  const { rows } = await db.query<CourseDbRow & { quiz: Question[] }>(`${select}, c.quiz ${from}`, params);
  const row = rows[0];
  if (!row) return null;
  const base = { ...courseRowOf(row), lessons: await lessonsOf(db, id) };
  if (viewer.manages) {
    const quiz: QuestionAdminView[] = row.quiz.map((q, position) => ({
      id: q.id,
      position,
      question: q.question,
      choices: q.choices,
      kind: q.kind,
      correct: q.correct,
      explanation: q.explanation,
    }));
    return { ...base, quiz, my: null } satisfies CourseAdminView;
  }
  const learnerQuiz = row.quiz.map((q, position) => ({ id: q.id, position, question: q.question, choices: q.choices, kind: q.kind }));
  return { ...base, quiz: learnerQuiz, my: await standingOf(db, viewer.userId, id) } satisfies CourseLearnerView;
}

export async function standingOf(db: Queryable, userId: string, courseId: string): Promise<MyCourseStanding | null> {
  const { rows } = await db.query<{
    id: string;
    status: MyCourseStanding['status'];
    progress: number;
    completed_lessons: string[];
    attempts_total: number;
    attempts_left: number | null;
    best_score: number | null;
    certification_id: string | null;
    certification_expires_at: Date | null;
  }>(
    `SELECT e.id, ${ENROLMENT_STATUS_SQL} AS status, ${PROGRESS_SQL} AS progress, e.completed_lessons, e.attempts_total, ${ATTEMPTS_LEFT_SQL} AS attempts_left, e.best_score,
       cert.id AS certification_id, cert.expires_at AS certification_expires_at
     FROM read.enrolments e JOIN read.courses c ON c.id = e.course_id
     LEFT JOIN read.certifications cert ON cert.enrolment_id = e.id
     WHERE e.user_id = $1 AND e.course_id = $2`,
    [userId, courseId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    enrolment_id: r.id,
    status: r.status,
    progress_percent: r.progress,
    completed_lessons: r.completed_lessons,
    attempts_used: r.attempts_total,
    attempts_left: r.attempts_left,
    best_score: r.best_score,
    certification_id: r.certification_id,
    certification_expires_at: iso(r.certification_expires_at),
  };
}

export async function courseVersions(db: Queryable, courseId: string) {
  const { rows } = await db.query<{
    version: number;
    content: CourseContent;
    published_at: Date;
    published_by: string | null;
    published_by_name: string | null;
  }>(
    `SELECT v.version, v.content, v.published_at, v.published_by, u.full_name AS published_by_name
     FROM read.course_versions v LEFT JOIN read.users u ON u.id = v.published_by WHERE v.course_id = $1 ORDER BY v.version DESC`,
    [courseId],
  );
  return rows.map((r) => ({
    version: r.version,
    title: r.content.title,
    published_at: iso(r.published_at),
    published_by: r.published_by,
    published_by_name: r.published_by_name,
    content: r.content,
  }));
}

// ---------------------------------------------------------------------------------------------
// Enrolments and attempts

export const ENROLMENT_SORT_FIELDS = ['enrolled_at', 'last_activity_at', 'course_title', 'user_name', 'status'] as const;
export type EnrolmentSortField = (typeof ENROLMENT_SORT_FIELDS)[number] | 'id';

export interface EnrolmentFilters {
  ids?: string[];
  user_id?: string;
  course_id?: string;
  organisation_id?: string;
  status?: string;
  search?: string;
}

interface EnrolmentDbRow {
  id: string;
  user_id: string;
  user_name: string;
  user_email: string;
  organisation_id: string | null;
  course_id: string;
  course_title: string;
  course_version: number;
  status: EnrolmentRow['status'];
  completed_lessons: string[];
  lessons_total: number;
  progress_percent: number;
  attempts_total: number;
  attempts_allowed: number | null;
  best_score: number | null;
  enrolled_at: Date;
  last_activity_at: Date;
  passed_at: Date | null;
}

const enrolmentRowOf = (r: EnrolmentDbRow): EnrolmentRow => ({
  id: r.id,
  user_id: r.user_id,
  user_name: r.user_name,
  user_email: r.user_email,
  organisation_id: r.organisation_id,
  course_id: r.course_id,
  course_title: r.course_title,
  course_version: r.course_version,
  status: r.status,
  completed_lessons: r.completed_lessons,
  lessons_total: r.lessons_total,
  progress_percent: r.progress_percent,
  attempts_used: r.attempts_total,
  attempts_allowed: r.attempts_allowed,
  best_score: r.best_score,
  enrolled_at: iso(r.enrolled_at)!,
  last_activity_at: iso(r.last_activity_at)!,
  passed_at: iso(r.passed_at),
});

export async function listEnrolments(
  db: Queryable,
  viewer: LearningViewer,
  filters: EnrolmentFilters,
  page: { offset: number; limit: number; sort?: { field: EnrolmentSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: EnrolmentRow[]; total: number }> {
  const params: unknown[] = [];
  const where = [peopleScope(viewer, 'e', params)];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filters.ids) where.push(`e.id = ANY (${add(filters.ids)}::uuid[])`);
  if (filters.user_id) where.push(`e.user_id = ${add(filters.user_id)}`);
  if (filters.course_id) where.push(`e.course_id = ${add(filters.course_id)}`);
  if (filters.organisation_id) where.push(`e.organisation_id = ${add(filters.organisation_id)}`);
  if (filters.search) {
    const term = add(`%${filters.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    where.push(`(c.title ILIKE ${term} OR u.full_name ILIKE ${term} OR u.email ILIKE ${term})`);
  }
  const inner = `SELECT e.id, e.user_id, u.full_name AS user_name, u.email AS user_email, e.organisation_id, e.course_id, c.title AS course_title, e.course_version,
      ${ENROLMENT_STATUS_SQL} AS status, e.completed_lessons, c.lesson_count AS lessons_total, ${PROGRESS_SQL} AS progress_percent, e.attempts_total, c.attempts_allowed,
      e.best_score, e.enrolled_at, e.last_activity_at, e.passed_at
    FROM read.enrolments e JOIN read.courses c ON c.id = e.course_id JOIN read.users u ON u.id = e.user_id
    WHERE ${where.join(' AND ')}`;
  const statusFilter = filters.status ? `WHERE status = ${add(filters.status)}` : '';
  const field = page.sort?.field ?? 'last_activity_at';
  const order = page.sort?.order ?? 'DESC';
  const { rows, total } = await pageOf<EnrolmentDbRow>(db, {
    columns: '*',
    from: `(${inner}) t`,
    where: statusFilter,
    order: `${field} ${order}, id`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map(enrolmentRowOf), total };
}

export async function findEnrolment(db: Queryable, userId: string, courseId: string): Promise<EnrolmentRow | null> {
  const { rows } = await listEnrolments(
    db,
    { userId, role: 'partner_user', organisationId: null, seesAll: false, manages: false, isOwner: false },
    { course_id: courseId },
    { offset: 0, limit: 1 },
  );
  return rows[0] ?? null;
}

interface AttemptDbRow {
  id: string;
  enrolment_id: string;
  course_id: string;
  course_version: number;
  score: number;
  passed: boolean;
  pass_mark: number;
  submitted_at: Date;
  attempt_number: number;
  attempts_left: number | null;
  results: Array<{ questionId: string; chosen: number[]; right: boolean }>;
  certification_id: string | null;
  explanations: Record<string, string | null> | null;
  version_quiz: Question[] | null;
}

/** The person's attempts at a course, newest first, each with its per-question results and explanations. */
export async function attemptsOf(db: Queryable, userId: string, courseId: string, attemptId?: string): Promise<AttemptRow[]> {
  const { rows } = await db.query<AttemptDbRow>(
    `SELECT a.id, a.enrolment_id, a.course_id, a.course_version, a.score, a.passed, a.pass_mark, a.submitted_at, a.attempt_number, a.results, a.certification_id,
       CASE WHEN a.attempts_allowed IS NULL THEN NULL ELSE greatest(a.attempts_allowed - a.attempt_number, 0) END AS attempts_left,
       coalesce(v.content -> 'quiz', c.quiz) AS version_quiz
     FROM read.course_attempts a JOIN read.courses c ON c.id = a.course_id
     LEFT JOIN read.course_versions v ON v.course_id = a.course_id AND v.version = a.course_version
     WHERE a.user_id = $1 AND a.course_id = $2 AND ($3::uuid IS NULL OR a.id = $3)
     ORDER BY a.submitted_at DESC, a.attempt_number DESC`,
    [userId, courseId, attemptId ?? null],
  );
  return rows.map((r) => {
    const quiz = new Map((r.version_quiz ?? []).map((q) => [q.id, q]));
    return {
      id: r.id,
      enrolment_id: r.enrolment_id,
      course_id: r.course_id,
      course_version: r.course_version,
      score: r.score,
      passed: r.passed,
      pass_mark: r.pass_mark,
      submitted_at: iso(r.submitted_at)!,
      attempt_number: r.attempt_number,
      attempts_left: r.passed ? null : r.attempts_left,
      questions: r.results.map((q, position) => ({
        position,
        question_id: q.questionId,
        chosen: q.chosen,
        right: q.right,
        explanation: quiz.get(q.questionId)?.explanation ?? null,
      })),
      certification_id: r.certification_id,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Certifications

export const CERTIFICATION_SORT_FIELDS = ['issued_at', 'expires_at', 'course_title', 'user_name', 'status'] as const;
export type CertificationSortField = (typeof CERTIFICATION_SORT_FIELDS)[number] | 'id';

export interface CertificationFilters {
  ids?: string[];
  status?: string;
  course_id?: string;
  user_id?: string;
  organisation_id?: string;
  expiring_within_days?: number;
  search?: string;
}

interface CertificationDbRow {
  id: string;
  user_id: string;
  user_name: string;
  user_email: string;
  organisation_id: string | null;
  organisation_name: string | null;
  course_id: string;
  course_title: string;
  course_version: number;
  issued_at: Date;
  expires_at: Date;
  status: CertificationRow['status'];
  verification_code: string;
  renewals: number;
}

const certificationRowOf = (r: CertificationDbRow): CertificationRow => ({
  ...r,
  issued_at: iso(r.issued_at)!,
  expires_at: iso(r.expires_at)!,
  certificate_url: `/api/certifications/${r.id}/certificate.pdf`,
});

function certificationQuery(viewer: LearningViewer, filters: CertificationFilters, params: unknown[]) {
  const where = [peopleScope(viewer, 'cert', params)];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filters.ids) where.push(`cert.id = ANY (${add(filters.ids)}::uuid[])`);
  if (filters.status) where.push(`cert.status = ${add(filters.status)}`);
  if (filters.course_id) where.push(`cert.course_id = ${add(filters.course_id)}`);
  if (filters.user_id) where.push(`cert.user_id = ${add(filters.user_id)}`);
  if (filters.organisation_id) where.push(`cert.organisation_id = ${add(filters.organisation_id)}`);
  if (filters.expiring_within_days !== undefined)
    where.push(`cert.status = 'active' AND cert.expires_at < now() + make_interval(days => ${add(filters.expiring_within_days)}::int)`);
  if (filters.search) {
    const term = add(`%${filters.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    where.push(`(cert.course_title ILIKE ${term} OR u.full_name ILIKE ${term} OR u.email ILIKE ${term} OR cert.verification_code ILIKE ${term})`);
  }
  return `FROM read.certifications cert JOIN read.users u ON u.id = cert.user_id LEFT JOIN read.users o ON o.id = cert.organisation_id WHERE ${where.join(' AND ')}`;
}

const CERTIFICATION_SELECT = `SELECT cert.id, cert.user_id, u.full_name AS user_name, u.email AS user_email, cert.organisation_id, coalesce(o.company_name, o.full_name) AS organisation_name,
  cert.course_id, cert.course_title, cert.course_version, cert.issued_at, cert.expires_at, cert.status, cert.verification_code, cert.renewals`;

export async function listCertifications(
  db: Queryable,
  viewer: LearningViewer,
  filters: CertificationFilters,
  page: { offset: number; limit: number; sort?: { field: CertificationSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: CertificationRow[]; total: number }> {
  const params: unknown[] = [];
  const from = certificationQuery(viewer, filters, params);
  const field = page.sort?.field ?? 'issued_at';
  const column = field === 'user_name' ? 'u.full_name' : `cert.${field}`;
  const order = page.sort?.order ?? 'DESC';
  const { rows, total } = await pageOf<CertificationDbRow>(db, {
    ...fromClause(from),
    columns: CERTIFICATION_SELECT.replace(/^SELECT /, ''),
    order: `${column} ${order}, cert.id`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map(certificationRowOf), total };
}

export async function* allCertifications(db: Queryable, viewer: LearningViewer, filters: CertificationFilters): AsyncGenerator<CertificationRow> {
  const params: unknown[] = [];
  const from = certificationQuery(viewer, filters, params);
  const { rows } = await db.query<CertificationDbRow>(`${CERTIFICATION_SELECT} ${from} ORDER BY cert.issued_at DESC, cert.id LIMIT 50000`, params);
  for (const row of rows) yield certificationRowOf(row);
}

export async function findCertification(db: Queryable, viewer: LearningViewer, id: string): Promise<CertificationRow | null> {
  const { rows } = await listCertifications(db, viewer, { ids: [id] }, { offset: 0, limit: 1 });
  return rows[0] ?? null;
}

/** The public verification: validity, the course and the dates; nothing about the person. */
export async function verifyCertification(
  db: Queryable,
  code: string,
  now: Date,
): Promise<{ valid: boolean; course: string | null; issued_at: string | null; expires_at: string | null }> {
  const { rows } = await db.query<{ course_title: string; issued_at: Date; expires_at: Date; status: string }>(
    'SELECT course_title, issued_at, expires_at, status FROM read.certifications WHERE verification_code = $1',
    [code.trim().toUpperCase()],
  );
  const r = rows[0];
  if (!r) return { valid: false, course: null, issued_at: null, expires_at: null };
  const valid = r.status === 'active' && r.issued_at.getTime() <= now.getTime() && now.getTime() < r.expires_at.getTime();
  return { valid, course: r.course_title, issued_at: iso(r.issued_at), expires_at: iso(r.expires_at) };
}

/**
 * Distinct people per organisation (or in `organisationId` alone) holding a certification at `asOf` (issued_at <= asOf < expires_at),
 * whatever the expiry job has marked yet: the dates decide, so a past moment counts as it was.
 */
export async function certifiedPeopleByOrganisation(db: Queryable, asOf: Date, organisationId?: string): Promise<Map<string, number>> {
  // One organisation's text names it, rather than `$2 IS NULL OR …`: the statement's kept plan suits one case only.
  const { rows } = await db.query<{ organisation_id: string; people: number }>(
    `SELECT organisation_id, count(DISTINCT user_id)::int AS people FROM read.certifications
     WHERE organisation_id IS NOT NULL AND issued_at <= $1 AND $1 < expires_at${organisationId ? ' AND organisation_id = $2::uuid' : ''} GROUP BY organisation_id`,
    organisationId ? [asOf, organisationId] : [asOf],
  );
  return new Map(rows.map((r) => [r.organisation_id, r.people]));
}

/** Active certifications due to expire or be reminded about (the worker's sweep). */
export async function activeCertifications(db: Queryable): Promise<Array<{ id: string; enrolment_id: string; expires_at: Date }>> {
  const { rows } = await db.query<{ id: string; enrolment_id: string; expires_at: Date }>(
    `SELECT id, enrolment_id, expires_at FROM read.certifications WHERE status = 'active' ORDER BY expires_at, id`,
  );
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Assignments

export const ASSIGNMENT_SORT_FIELDS = ['due_date', 'assigned_at', 'course_title', 'user_name', 'status'] as const;
export type AssignmentSortField = (typeof ASSIGNMENT_SORT_FIELDS)[number] | 'id';

export interface AssignmentFilters {
  ids?: string[];
  user_id?: string;
  course_id?: string;
  status?: string;
  overdue?: boolean;
  organisation_id?: string;
}

interface AssignmentDbRow {
  id: string;
  organisation_id: string;
  user_id: string;
  user_name: string;
  course_id: string;
  course_title: string;
  due_date: Date | string;
  note: string | null;
  assigned_by: string | null;
  assigned_at: Date;
  status: AssignmentRow['status'];
  completed_at: Date | null;
  overdue: boolean;
}

const OVERDUE_SQL = `(a.status = 'open' AND a.due_date < (now() AT TIME ZONE 'UTC')::date)`;

export async function listAssignments(
  db: Queryable,
  viewer: LearningViewer,
  filters: AssignmentFilters,
  page: { offset: number; limit: number; sort?: { field: AssignmentSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: AssignmentRow[]; total: number }> {
  const params: unknown[] = [];
  const where = [peopleScope(viewer, 'a', params)];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filters.ids) where.push(`a.id = ANY (${add(filters.ids)}::uuid[])`);
  if (filters.user_id) where.push(`a.user_id = ${add(filters.user_id)}`);
  if (filters.course_id) where.push(`a.course_id = ${add(filters.course_id)}`);
  if (filters.status) where.push(`a.status = ${add(filters.status)}`);
  if (filters.organisation_id) where.push(`a.organisation_id = ${add(filters.organisation_id)}`);
  if (filters.overdue !== undefined) where.push(filters.overdue ? OVERDUE_SQL : `NOT ${OVERDUE_SQL}`);
  const from = `FROM read.learning_assignments a JOIN read.courses c ON c.id = a.course_id JOIN read.users u ON u.id = a.user_id WHERE ${where.join(' AND ')}`;
  const field = page.sort?.field ?? 'due_date';
  const column = field === 'user_name' ? 'u.full_name' : field === 'course_title' ? 'c.title' : `a.${field}`;
  const order = page.sort?.order ?? 'ASC';
  const { rows, total } = await pageOf<AssignmentDbRow>(db, {
    ...fromClause(from),
    columns: `a.id, a.organisation_id, a.user_id, u.full_name AS user_name, a.course_id, c.title AS course_title, a.due_date::text AS due_date, a.note, a.assigned_by, a.assigned_at,
         a.status, a.completed_at, ${OVERDUE_SQL} AS overdue`,
    order: `${column} ${order}, a.id`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
  return {
    rows: rows.map((r) => ({
      ...r,
      assigned_by: r.assigned_by ?? r.organisation_id,
      due_date: day(r.due_date),
      assigned_at: iso(r.assigned_at)!,
      completed_at: iso(r.completed_at),
    })),
    total,
  };
}

/** Open assignments the worker reminds about. */
export async function openAssignments(db: Queryable): Promise<Array<{ id: string; due_date: string }>> {
  const { rows } = await db.query<{ id: string; due_date: string }>(
    `SELECT id, due_date::text AS due_date FROM read.learning_assignments WHERE status = 'open' ORDER BY due_date, id`,
  );
  return rows;
}

// ---------------------------------------------------------------------------------------------
// The owner's training matrix and the admins' report

/** People × published courses of one organisation: each cell the person's standing, assignments' due dates, overdue flagged. */
export async function trainingMatrix(db: Queryable, organisationId: string): Promise<MatrixAnswer['data']> {
  const people = await db.query<{ user_id: string; name: string; email: string; role: string }>(
    `SELECT id AS user_id, full_name AS name, email, role FROM read.users WHERE (id = $1 OR parent_user_id = $1) AND is_active ORDER BY (id = $1) DESC, full_name, id`,
    [organisationId],
  );
  const courses = await db.query<{ id: string; title: string; certifying: boolean }>(
    `SELECT id, title, certifying FROM read.courses c WHERE c.status = 'published' OR EXISTS (SELECT 1 FROM read.learning_assignments a WHERE a.course_id = c.id AND a.organisation_id = $1 AND a.status = 'open') ORDER BY title, id`,
    [organisationId],
  );
  const cells = await db.query<MatrixAnswer['data']['cells'][number] & { certification_expires_at: Date | null; due_date: string | null }>(
    `SELECT p.id AS user_id, c.id AS course_id,
       CASE
         WHEN cert.status = 'active' AND cert.expires_at > now() THEN 'certified'
         WHEN cert.id IS NOT NULL THEN 'expired'
         WHEN e.id IS NULL THEN 'not_started'
         ELSE ${ENROLMENT_STATUS_SQL} END AS status,
       CASE WHEN e.id IS NULL THEN 0 ELSE ${PROGRESS_SQL} END AS progress_percent,
       e.best_score, asg.due_date::text AS due_date, coalesce(asg.overdue, false) AS overdue,
       cert.id AS certification_id, cert.expires_at AS certification_expires_at
     FROM read.users p CROSS JOIN read.courses c
     LEFT JOIN read.enrolments e ON e.user_id = p.id AND e.course_id = c.id
     LEFT JOIN read.certifications cert ON cert.user_id = p.id AND cert.course_id = c.id
     LEFT JOIN LATERAL (
       SELECT a.due_date, ${OVERDUE_SQL} AS overdue FROM read.learning_assignments a
       WHERE a.user_id = p.id AND a.course_id = c.id AND a.status <> 'cancelled' ORDER BY (a.status = 'open') DESC, a.due_date LIMIT 1) asg ON TRUE
     WHERE (p.id = $1 OR p.parent_user_id = $1) AND p.is_active AND c.id = ANY ($2::uuid[])
       AND (e.id IS NOT NULL OR cert.id IS NOT NULL OR asg.due_date IS NOT NULL)
     ORDER BY p.id, c.id`,
    [organisationId, courses.rows.map((c) => c.id)],
  );
  return {
    organisation_id: organisationId,
    people: people.rows,
    courses: courses.rows,
    cells: cells.rows.map((c) => ({ ...c, certification_expires_at: iso(c.certification_expires_at) })),
  };
}

/** Per course: enrolled, completed, passed, attempts, the pass and completion rates, the average score, certifications in force. */
export async function courseReport(db: Queryable): Promise<ReportRow[]> {
  const { rows } = await db.query<ReportRow>(
    `SELECT c.id AS course_id, c.title, c.status, c.version, c.certifying,
       (SELECT count(*)::int FROM read.enrolments e WHERE e.course_id = c.id) AS enrolled,
       (SELECT count(*)::int FROM read.enrolments e WHERE e.course_id = c.id AND (e.passed_at IS NOT NULL OR (${ENROLMENT_STATUS_SQL}) = 'completed')) AS completed,
       (SELECT count(*)::int FROM read.enrolments e WHERE e.course_id = c.id AND e.passed_at IS NOT NULL) AS passed,
       (SELECT count(*)::int FROM read.course_attempts a WHERE a.course_id = c.id) AS attempts,
       (SELECT round(100.0 * count(DISTINCT a.user_id) FILTER (WHERE a.passed) / nullif(count(DISTINCT a.user_id), 0), 1)::float FROM read.course_attempts a WHERE a.course_id = c.id) AS pass_rate,
       (SELECT round(100.0 * count(*) FILTER (WHERE e.passed_at IS NOT NULL OR (${ENROLMENT_STATUS_SQL}) = 'completed') / nullif(count(*), 0), 1)::float FROM read.enrolments e WHERE e.course_id = c.id) AS completion_rate,
       (SELECT round(avg(a.score), 1)::float FROM read.course_attempts a WHERE a.course_id = c.id) AS average_score,
       (SELECT count(*)::int FROM read.certifications cert WHERE cert.course_id = c.id AND cert.status = 'active' AND cert.expires_at > now()) AS active_certifications
     FROM read.courses c ORDER BY c.title, c.id`,
  );
  return rows;
}

/** A course's title. */
export async function courseTitleOf(db: Queryable, courseId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ title: string }>('SELECT title FROM read.courses WHERE id = $1', [courseId]);
  return rows[0]?.title;
}

/** The organisation of an active learner (a partner, distributor or one of their team members), or undefined when the account is no active learner. */
export async function learnerOrganisation(db: Queryable, userId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ organisation_id: string }>(
    `SELECT coalesce(parent_user_id, id) AS organisation_id FROM read.users WHERE id = $1 AND is_active AND role = ANY ($2)`,
    [userId, LEARNER_ROLES],
  );
  return rows[0]?.organisation_id;
}

/** Whether the person has an open assignment of the course. */
export async function hasOpenAssignment(db: Queryable, userId: string, courseId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM read.learning_assignments WHERE user_id = $1 AND course_id = $2 AND status = 'open'`, [userId, courseId]);
  return rows.length > 0;
}
