import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { assignments, assignmentReminderAt, type AssignmentEvent } from './assignments';
import { courses, type CourseContent, type CourseEvent } from './courses';
import { DAY_MS, enrolments, type CourseSnapshot, type EnrolmentEvent } from './enrolments';
import { grade } from './grading';

const L1 = '00000000-0000-4000-8000-0000000000a1';
const L2 = '00000000-0000-4000-8000-0000000000a2';
const Q1 = '00000000-0000-4000-8000-0000000000b1';
const Q2 = '00000000-0000-4000-8000-0000000000b2';
const COURSE = '00000000-0000-4000-8000-000000000c01';
const ENROLMENT = '00000000-0000-4000-8000-000000000e01';
const USER = '00000000-0000-4000-8000-000000000f01';
const ORG = '00000000-0000-4000-8000-0000000000f0';
const CERT = '00000000-0000-4000-8000-0000000000ce';

const content = (overrides: Partial<CourseContent> = {}): CourseContent => ({
  title: 'VLAN basics',
  summary: 'Split a switch into networks.',
  audience: ['partner', 'partner_user'],
  productCategories: ['Industrial Managed Switches'],
  level: 'beginner',
  estimatedMinutes: 30,
  certifying: true,
  validityDays: 365,
  passMark: 50,
  attemptsAllowed: 2,
  shuffleQuestions: false,
  lessons: [
    { id: L1, title: 'What a VLAN is', body: 'Text', media: null },
    { id: L2, title: 'Trunks', body: 'Text', media: { kind: 'link', url: 'https://example.com/v.mp4', type: 'video' } },
  ],
  quiz: [
    { id: Q1, question: 'Tag?', choices: ['802.1Q', '802.3af'], correct: [0], kind: 'single', explanation: '802.1Q tags.' },
    { id: Q2, question: 'Which are VLAN ids?', choices: ['1', '4095', '100'], correct: [0, 2], kind: 'multiple', explanation: null },
  ],
  ...overrides,
});

describe('grading', () => {
  const quiz = [
    { id: Q1, correct: [0], explanation: null },
    { id: Q2, correct: [0, 2], explanation: null },
  ];
  it('counts a multiple-choice question right only on the exact set', () => {
    expect(grade(quiz, [[0], [0, 2]], 100)).toMatchObject({ score: 100, passed: true });
    expect(grade(quiz, [[0], [2, 0]], 100).results[1].right).toBe(true);
    expect(grade(quiz, [[0], [0]], 100).results[1].right).toBe(false);
    expect(grade(quiz, [[0], [0, 1, 2]], 100).results[1].right).toBe(false);
    expect(grade(quiz, [[], []], 0)).toMatchObject({ score: 0, passed: true });
  });
  it('passes exactly at the pass mark and not one point below; rounds the score down', () => {
    expect(grade(quiz, [[0], [1]], 50)).toMatchObject({ score: 50, passed: true });
    expect(grade(quiz, [[0], [1]], 51)).toMatchObject({ score: 50, passed: false });
    const three = [...quiz, { id: L1, correct: [1], explanation: null }];
    expect(grade(three, [[0], [1], [0]], 34)).toMatchObject({ score: 33, passed: false });
    expect(grade(three, [[0], [0, 2], [0]], 67)).toMatchObject({ score: 66, passed: false });
  });
});

describe('courses', () => {
  const spec = deciderSpec(courses);
  const created: CourseEvent = {
    type: 'CourseCreated.v1',
    data: { courseId: COURSE, content: content(), createdBy: 'actor-1', status: 'draft', previousStatus: null },
  };
  const published: CourseEvent = {
    type: 'CoursePublished.v1',
    data: { courseId: COURSE, version: 1, content: content(), status: 'published', previousStatus: 'draft' },
  };

  it('creates a draft, or a published version 1', () => {
    spec.given([]).when({ type: 'CreateCourse', courseId: COURSE, content: content(), publish: false, createdBy: 'actor-1' }).then([created]);
    spec.given([]).when({ type: 'CreateCourse', courseId: COURSE, content: content(), publish: true, createdBy: 'actor-1' }).then([created, published]);
    spec.given([created]).when({ type: 'CreateCourse', courseId: COURSE, content: content(), publish: false, createdBy: 'actor-1' }).then([]);
  });
  it('refuses a certifying course without validity or quiz, and right choices that do not fit', () => {
    const create = (c: CourseContent) => spec.given([]).when({ type: 'CreateCourse', courseId: COURSE, content: c, publish: false, createdBy: null });
    create(content({ validityDays: null })).thenThrows(/validity/);
    create(content({ quiz: [] })).thenThrows(/needs a quiz/);
    create(content({ quiz: [{ ...content().quiz[0], correct: [2] }] })).thenThrows(/does not exist/);
    create(content({ quiz: [{ ...content().quiz[0], correct: [0, 1] }] })).thenThrows(/exactly one/);
    create(content({ quiz: [{ ...content().quiz[0], correct: [0, 0], kind: 'multiple' }] })).thenThrows(/twice/);
    spec
      .given([])
      .when({ type: 'CreateCourse', courseId: COURSE, content: content({ lessons: [] }), publish: true, createdBy: null })
      .thenThrows(/at least one lesson/);
  });
  it('changes a draft in place, and a published course into its next version', () => {
    const changed = content({ title: 'VLANs and trunks' });
    spec
      .given([created])
      .when({ type: 'ChangeCourse', content: changed })
      .then([{ type: 'CourseDraftChanged.v1', data: { courseId: COURSE, content: changed } }]);
    spec
      .given([created, published])
      .when({ type: 'ChangeCourse', content: changed })
      .then([{ type: 'CourseRevised.v1', data: { courseId: COURSE, version: 2, content: changed } }]);
    spec.given([created, published]).when({ type: 'ChangeCourse', content: content() }).then([]);
  });
  it('archives, refuses changes while archived, and publishes again with the same version', () => {
    const archived: CourseEvent = { type: 'CourseArchived.v1', data: { courseId: COURSE, reason: null, status: 'archived', previousStatus: 'published' } };
    spec.given([created, published]).when({ type: 'ArchiveCourse', reason: ' ' }).then([archived]);
    spec
      .given([created, published, archived])
      .when({ type: 'ChangeCourse', content: content({ title: 'x' }) })
      .thenThrows(/archived/, 'COURSE_ARCHIVED');
    spec
      .given([created, published, archived])
      .when({ type: 'PublishCourse' })
      .then([{ type: 'CoursePublished.v1', data: { courseId: COURSE, version: 1, content: content(), status: 'published', previousStatus: 'archived' } }]);
    spec
      .given([])
      .when({ type: 'PublishCourse' })
      .thenThrows(/not found/);
  });
});

describe('enrolments', () => {
  const spec = deciderSpec(enrolments);
  const now = '2026-11-21T10:00:00.000Z';
  const snapshot = (overrides: Partial<CourseSnapshot> = {}): CourseSnapshot => ({
    id: COURSE,
    status: 'published',
    version: 1,
    audience: ['partner', 'partner_user'],
    lessonIds: [L1, L2],
    quiz: [
      { id: Q1, correct: [0], explanation: 'e', choiceCount: 2, kind: 'single' },
      { id: Q2, correct: [0, 2], explanation: null, choiceCount: 3, kind: 'multiple' },
    ],
    passMark: 100,
    attemptsAllowed: 2,
    certifying: true,
    validityDays: 365,
    ...overrides,
  });
  const started: EnrolmentEvent = {
    type: 'EnrolmentStarted.v1',
    data: { enrolmentId: ENROLMENT, userId: USER, organisationId: ORG, courseId: COURSE, courseVersion: 1 },
  };
  const submit = (answers: number[][], course = snapshot()) => ({
    type: 'SubmitAttempt' as const,
    attemptId: 'attempt-x',
    answers,
    course,
    certification: { certificationId: CERT, verificationCode: 'CODE-1' },
  });
  type AttemptEvent = Extract<EnrolmentEvent, { type: 'AttemptSubmitted.v1' }>;
  const attempt = (passed: boolean, attemptNumber: number, version = 1, overrides: Partial<AttemptEvent['data']> = {}): AttemptEvent => ({
    type: 'AttemptSubmitted.v1',
    data: {
      enrolmentId: ENROLMENT,
      attemptId: 'attempt-x',
      userId: USER,
      courseId: COURSE,
      courseVersion: version,
      answers: passed ? [[0], [0, 2]] : [[1], [0, 2]],
      results: [
        { questionId: Q1, chosen: passed ? [0] : [1], right: passed },
        { questionId: Q2, chosen: [0, 2], right: true },
      ],
      score: passed ? 100 : 50,
      passMark: 100,
      passed,
      attemptNumber,
      attemptsAllowed: 2,
      ...overrides,
    },
  });
  const expiresAt = new Date(Date.parse(now) + 365 * DAY_MS).toISOString();
  const granted: EnrolmentEvent = {
    type: 'CertificationGranted.v1',
    data: {
      enrolmentId: ENROLMENT,
      certificationId: CERT,
      userId: USER,
      organisationId: ORG,
      courseId: COURSE,
      courseVersion: 1,
      issuedAt: now,
      expiresAt,
      verificationCode: 'CODE-1',
    },
  };

  it('enrols a person of the audience into a published course, once', () => {
    const enrol = (role: string, course = snapshot()) => ({
      type: 'Enrol' as const,
      enrolmentId: ENROLMENT,
      userId: USER,
      userRole: role,
      organisationId: ORG,
      course,
    });
    spec
      .given([])
      .when(enrol('partner_user'))
      .then([{ ...started }]);
    spec.given([started]).when(enrol('partner_user')).then([]);
    spec
      .given([])
      .when(enrol('distributor'))
      .thenThrows(/not offered to your role/, 'COURSE_NOT_FOR_ROLE');
    spec
      .given([])
      .when(enrol('support'))
      .thenThrows(/Only partners/, 'NOT_A_LEARNER');
    spec
      .given([])
      .when(enrol('partner', snapshot({ status: 'draft' })))
      .thenThrows(/not open/);
  });

  it('marks lessons done and undone, only lessons of the course', () => {
    const done: EnrolmentEvent = { type: 'LessonCompleted.v1', data: { enrolmentId: ENROLMENT, courseId: COURSE, lessonId: L1 } };
    spec.given([started]).when({ type: 'MarkLesson', lessonId: L1, done: true, course: snapshot() }).then([done]);
    spec.given([started, done]).when({ type: 'MarkLesson', lessonId: L1, done: true, course: snapshot() }).then([]);
    spec
      .given([started, done])
      .when({ type: 'MarkLesson', lessonId: L1, done: false, course: snapshot() })
      .then([{ type: 'LessonReopened.v1', data: done.data }]);
    spec
      .given([started])
      .when({ type: 'MarkLesson', lessonId: Q1, done: true, course: snapshot() })
      .thenThrows(/not part of the course/);
    spec.given([]).when({ type: 'MarkLesson', lessonId: L1, done: true, course: snapshot() }).thenThrows(/Enrol/);
  });

  it('grades an attempt on the server and grants the certification on a pass, with expiry from the validity days', () => {
    spec
      .given([started])
      .when(submit([[0], [2, 0]]), { now })
      .then([attempt(true, 1), granted]);
    spec
      .given([started])
      .when(submit([[1], [0, 2]]), { now })
      .then([attempt(false, 1)]);
  });

  it('grants nothing for a pass of a course that does not certify', () => {
    const events = enrolments.decide(
      submit([[0], [0, 2]], snapshot({ certifying: false, validityDays: null })),
      enrolments.evolve({ status: 'none' }, started),
      { now, actorId: USER, actorRole: 'partner', correlationId: 'c', causationId: null },
    );
    expect(events.map((e) => e.type)).toEqual(['AttemptSubmitted.v1']);
  });

  it('refuses answers that do not fit the quiz', () => {
    spec
      .given([started])
      .when(submit([[0]]))
      .thenThrows(/each of the 2 questions/);
    spec
      .given([started])
      .when(submit([[0, 1], [0]]))
      .thenThrows(/choose one answer/);
    spec
      .given([started])
      .when(submit([[5], [0]]))
      .thenThrows(/does not exist/);
    spec
      .given([started])
      .when(submit([], snapshot({ quiz: [] })))
      .thenThrows(/no quiz/);
    spec
      .given([started])
      .when(submit([[0], [0]], snapshot({ status: 'archived' })))
      .thenThrows(/not open/);
  });

  it('limits attempts per version; a new version gives them again', () => {
    spec
      .given([started, attempt(false, 1), attempt(false, 2)])
      .when(submit([[0], [0, 2]]))
      .thenThrows(/every attempt/, 'ATTEMPTS_USED_UP');
    spec
      .given([started, attempt(false, 1)])
      .when(submit([[1], [0]]), { now })
      .then([
        attempt(false, 2, 1, {
          answers: [[1], [0]],
          results: [
            { questionId: Q1, chosen: [1], right: false },
            { questionId: Q2, chosen: [0], right: false },
          ],
          score: 0,
        }),
      ]);
    const v2 = snapshot({ version: 2 });
    const events = enrolments.decide(submit([[1], [0, 2]], v2), [started, attempt(false, 1), attempt(false, 2)].reduce(enrolments.evolve, { status: 'none' }), {
      now,
      actorId: USER,
      actorRole: 'partner',
      correlationId: 'c',
      causationId: null,
    });
    expect(events[0]).toMatchObject({ type: 'AttemptSubmitted.v1', data: { courseVersion: 2, attemptNumber: 1 } });
    spec
      .given([started, attempt(false, 1), attempt(false, 2, 1)])
      .when(submit([[1], [0, 2]], snapshot({ attemptsAllowed: null })))
      .then([attempt(false, 3, 1, { attemptsAllowed: null })]);
  });

  it('renews the certification on a later pass (a new version), keeping its id and code', () => {
    const later = '2027-06-01T00:00:00.000Z';
    const v2 = snapshot({ version: 2 });
    const events = enrolments.decide(submit([[0], [0, 2]], v2), [started, attempt(true, 1), granted].reduce(enrolments.evolve, { status: 'none' }), {
      now: later,
      actorId: USER,
      actorRole: 'partner',
      correlationId: 'c',
      causationId: null,
    });
    expect(events[1]).toEqual({
      type: 'CertificationRenewed.v1',
      data: {
        enrolmentId: ENROLMENT,
        certificationId: CERT,
        userId: USER,
        courseId: COURSE,
        courseVersion: 2,
        issuedAt: later,
        expiresAt: new Date(Date.parse(later) + 365 * DAY_MS).toISOString(),
        previousExpiresAt: expiresAt,
      },
    });
  });

  it('expires the certification at its expiry, never early and never twice; a renewed one is left alone', () => {
    const expired: EnrolmentEvent = {
      type: 'CertificationExpired.v1',
      data: { enrolmentId: ENROLMENT, certificationId: CERT, userId: USER, organisationId: ORG, courseId: COURSE, expiresAt },
    };
    const history = [started, attempt(true, 1), granted];
    spec.given(history).when({ type: 'ExpireCertification', certificationId: CERT, expiresAt }, { now: expiresAt }).then([expired]);
    spec
      .given(history)
      .when({ type: 'ExpireCertification', certificationId: CERT, expiresAt }, { now: new Date(Date.parse(expiresAt) - 1).toISOString() })
      .thenThrows(/does not expire yet/, 'CERTIFICATION_NOT_DUE');
    spec
      .given([...history, expired])
      .when({ type: 'ExpireCertification', certificationId: CERT, expiresAt }, { now: expiresAt })
      .thenThrows(/already expired/, 'CERTIFICATION_EXPIRED');
    spec.given(history).when({ type: 'ExpireCertification', certificationId: CERT, expiresAt: now }, { now: expiresAt }).then([]);
    spec
      .given([started])
      .when({ type: 'ExpireCertification', certificationId: CERT, expiresAt }, { now: expiresAt })
      .thenThrows(/not found/);
    // Passing after the expiry renews it: active again with a new expiry.
    const renewed = enrolments.decide(submit([[0], [0, 2]]), [...history, expired].reduce(enrolments.evolve, { status: 'none' }), {
      now: expiresAt,
      actorId: USER,
      actorRole: 'partner',
      correlationId: 'c',
      causationId: null,
    });
    const state = [...history, expired, ...renewed].reduce(enrolments.evolve, { status: 'none' });
    expect(state.status !== 'none' && state.certification).toMatchObject({ status: 'active', id: CERT, verificationCode: 'CODE-1', issuedAt: expiresAt });
  });

  it('reminds 30 and 7 days before the expiry, each once and not early', () => {
    const history = [started, attempt(true, 1), granted];
    const at30 = new Date(Date.parse(expiresAt) - 30 * DAY_MS).toISOString();
    const reminder: EnrolmentEvent = {
      type: 'CertificationExpiryReminderSent.v1',
      data: { enrolmentId: ENROLMENT, certificationId: CERT, userId: USER, courseId: COURSE, expiresAt, daysBefore: 30 },
    };
    spec.given(history).when({ type: 'RemindCertificationExpiry', certificationId: CERT, expiresAt, daysBefore: 30 }, { now: at30 }).then([reminder]);
    spec
      .given([...history, reminder])
      .when({ type: 'RemindCertificationExpiry', certificationId: CERT, expiresAt, daysBefore: 30 }, { now: at30 })
      .then([]);
    spec
      .given(history)
      .when({ type: 'RemindCertificationExpiry', certificationId: CERT, expiresAt, daysBefore: 7 }, { now: at30 })
      .thenThrows(/not due/);
  });
});

describe('assignments', () => {
  const spec = deciderSpec(assignments);
  const A = '00000000-0000-4000-8000-0000000000aa';
  const assign = (overrides: Record<string, unknown> = {}) => ({
    type: 'AssignCourse' as const,
    assignmentId: A,
    actorOrganisationId: ORG,
    memberOrganisationId: ORG,
    userId: USER,
    courseId: COURSE,
    courseStatus: 'published',
    dueDate: '2026-12-01',
    note: null,
    ...overrides,
  });
  const assigned: AssignmentEvent = {
    type: 'CourseAssigned.v1',
    data: {
      assignmentId: A,
      organisationId: ORG,
      userId: USER,
      courseId: COURSE,
      dueDate: '2026-12-01',
      note: null,
      assignedBy: 'actor-1',
      status: 'open',
      previousStatus: null,
    },
  };
  it('assigns a published course to a member of the owner’s organisation, due today or later', () => {
    spec.given([]).when(assign()).then([assigned]);
    spec
      .given([])
      .when(assign({ memberOrganisationId: 'other' }))
      .thenThrows(/only to people of your organisation/);
    spec
      .given([])
      .when(assign({ courseStatus: 'draft' }))
      .thenThrows(/published/);
    spec
      .given([])
      .when(assign({ dueDate: '2026-11-20' }))
      .thenThrows(/today or later/);
  });
  it('cancels an open assignment of the owner’s organisation once', () => {
    const cancelled: AssignmentEvent = {
      type: 'AssignmentCancelled.v1',
      data: { assignmentId: A, organisationId: ORG, status: 'cancelled', previousStatus: 'open' },
    };
    spec.given([assigned]).when({ type: 'CancelAssignment', actorOrganisationId: ORG }).then([cancelled]);
    spec
      .given([assigned])
      .when({ type: 'CancelAssignment', actorOrganisationId: 'other' })
      .thenThrows(/not your organisation/);
    spec
      .given([assigned, cancelled])
      .when({ type: 'CancelAssignment', actorOrganisationId: ORG })
      .thenThrows(/no longer open/);
  });
  it('reminds before the due date and once overdue, each once, never early', () => {
    const soon = assignmentReminderAt('2026-12-01', 'due-soon');
    expect(soon).toBe('2026-11-28T00:00:00.000Z');
    expect(assignmentReminderAt('2026-12-01', 'overdue')).toBe('2026-12-02T00:00:00.000Z');
    const sent: AssignmentEvent = {
      type: 'AssignmentReminderSent.v1',
      data: { assignmentId: A, userId: USER, courseId: COURSE, dueDate: '2026-12-01', reminder: 'due-soon' },
    };
    spec.given([assigned]).when({ type: 'RemindAssignment', dueDate: '2026-12-01', reminder: 'due-soon' }, { now: soon }).then([sent]);
    spec.given([assigned, sent]).when({ type: 'RemindAssignment', dueDate: '2026-12-01', reminder: 'due-soon' }, { now: soon }).then([]);
    spec
      .given([assigned])
      .when({ type: 'RemindAssignment', dueDate: '2026-12-01', reminder: 'overdue' }, { now: soon })
      .thenThrows(/not due/);
  });
});
