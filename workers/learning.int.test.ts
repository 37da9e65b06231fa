import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CommandMetadata } from '../domain/decider';
import { assignments } from '../domain/learning/assignments';
import { enrolments } from '../domain/learning/enrolments';
import { handleCommand } from '../platform/commands/commandHandler';
import { newId } from '../platform/commands/dispatch';
import { certificationIdOf, courseState, enrolmentIdOf, snapshotOf } from '../commands/learning';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { startWorkers } from './index';
import { sweepLearningDeadlines } from './learning';
import { closeQueues, createQueues } from '../platform/queues';

let t: TestPortal;
let admin: Session;
let partner: Session;
let member: Session;
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

beforeAll(async () => {
  // No worker process yet: the deadline jobs are "lost" until a worker starts and sweeps.
  t = await startTestPortal({ processes: ['api', 'projector'], env: { JOB_BACKOFF_MS: '100' } });
  [admin, partner, member] = await Promise.all(['admin', 'partner', 'partner.user'].map((name) => login(t.app, `${name}@partnerhub.test`)));
});
afterAll(() => t?.close());

const at = (now: string, who: Session): CommandMetadata => ({
  now,
  actorId: who.user.id,
  actorRole: who.user.role,
  correlationId: `history-${now}`,
  causationId: null,
});

/** Enrols and passes the person as of `when`: the certification is issued then. */
async function certifiedAt(courseId: string, who: Session, when: string) {
  const course = await courseState(t.portal.services, courseId);
  if (course.status === 'none') throw new Error('no course');
  const snapshot = snapshotOf(course);
  const enrolmentId = enrolmentIdOf(who.user.id, courseId);
  const store = t.portal.services.store;
  await handleCommand(
    store,
    enrolments,
    enrolmentId,
    { type: 'Enrol', enrolmentId, userId: who.user.id, userRole: who.user.role, organisationId: partner.user.id, course: snapshot },
    at(when, who),
  );
  await handleCommand(
    store,
    enrolments,
    enrolmentId,
    {
      type: 'SubmitAttempt',
      attemptId: newId(),
      answers: [[0]],
      course: snapshot,
      certification: { certificationId: certificationIdOf(enrolmentId), verificationCode: `WK-${who.user.id.slice(0, 8).toUpperCase()}` },
    },
    at(when, who),
  );
  return enrolmentId;
}

const eventsOf = async (streamId: string, type: string) => (await t.portal.services.store.readStream(streamId)).filter((e) => e.type === type);
/** The person's notifications of a kind about the worker's course (the demo data has its own). */
const notices = async (userId: string, kind: string) =>
  (await t.db.pool.query<{ body: string }>('SELECT body FROM read.notifications WHERE user_id = $1 AND kind = $2', [userId, kind])).rows.filter((n) =>
    n.body.includes('Worker course'),
  );

describe('certification expiry and assignment reminders', () => {
  it('expire a certification at its expiry, remind 30 days before, and remind of an overdue assignment, each exactly once across a worker restart', async () => {
    const created = await as(
      t.app,
      admin,
    )({
      method: 'POST',
      url: '/api/courses',
      payload: {
        title: 'Worker course',
        summary: 'For the expiry jobs.',
        audience: ['partner', 'partner_user'],
        level: 'beginner',
        estimated_minutes: 5,
        certifying: true,
        validity_days: 365,
        pass_mark: 100,
        lessons: [{ title: 'Only lesson', body: 'Read me.' }],
        quiz: [{ question: 'Right?', choices: ['Yes', 'No'], correct: [0] }],
        status: 'published',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const courseId = created.json().data.id as string;

    const lapsed = await certifiedAt(courseId, member, daysAgo(400)); // expired 35 days ago
    const expiring = await certifiedAt(courseId, partner, daysAgo(340)); // expires in 25 days: the 30-day reminder is due, the 7-day one not
    const assignmentId = newId();
    const dueDate = daysAgo(10).slice(0, 10);
    await handleCommand(
      t.portal.services.store,
      assignments,
      assignmentId,
      {
        type: 'AssignCourse',
        assignmentId,
        actorOrganisationId: partner.user.id,
        memberOrganisationId: partner.user.id,
        userId: member.user.id,
        courseId,
        courseStatus: 'published',
        dueDate,
        note: null,
      },
      at(daysAgo(20), partner),
    );

    const first = await startWorkers(t.portal.services, { log: () => {} });
    await vi.waitFor(
      async () => {
        expect(await eventsOf(enrolments.streamId(lapsed), 'CertificationExpired.v1')).toHaveLength(1);
        expect(await eventsOf(enrolments.streamId(expiring), 'CertificationExpiryReminderSent.v1')).toHaveLength(1);
        expect(await eventsOf(assignments.streamId(assignmentId), 'AssignmentReminderSent.v1')).toHaveLength(1);
        expect(await notices(member.user.id, 'certification-expired')).toHaveLength(1);
        expect(await notices(partner.user.id, 'certification-expiring')).toHaveLength(1);
        expect(await notices(member.user.id, 'course-assignment-overdue')).toHaveLength(1);
      },
      { timeout: 30_000, interval: 200 },
    );
    await first.stop();

    // A restarted worker sweeps again, and so does an explicit sweep: nothing happens twice.
    const second = await startWorkers(t.portal.services, { log: () => {} });
    const queues = createQueues(t.portal.services.config);
    const swept = await sweepLearningDeadlines(t.portal.services, queues);
    expect(swept.ran).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await second.stop();
    await closeQueues(queues);

    expect(await eventsOf(enrolments.streamId(lapsed), 'CertificationExpired.v1')).toHaveLength(1);
    const reminders = await eventsOf(enrolments.streamId(expiring), 'CertificationExpiryReminderSent.v1');
    expect(reminders.map((e) => (e.data as { daysBefore: number }).daysBefore)).toEqual([30]);
    expect(reminders[0].metadata.actorRole).toBe('system');
    expect(await eventsOf(enrolments.streamId(expiring), 'CertificationExpired.v1')).toHaveLength(0);
    const assignmentReminders = await eventsOf(assignments.streamId(assignmentId), 'AssignmentReminderSent.v1');
    // The due-soon reminder was overtaken while nobody swept: only the overdue one is sent.
    expect(assignmentReminders.map((e) => (e.data as { reminder: string }).reminder)).toEqual(['overdue']);
    expect(await notices(member.user.id, 'certification-expired')).toHaveLength(1);
    expect(await notices(partner.user.id, 'certification-expiring')).toHaveLength(1);
    expect(await notices(member.user.id, 'course-assignment-overdue')).toHaveLength(1);

    // The read model and the programme count agree: the expired one is expired, the other counts.
    const { rows } = await t.db.pool.query<{ id: string; status: string }>(
      'SELECT id, status FROM read.certifications WHERE id = ANY ($1::uuid[]) ORDER BY status',
      [[certificationIdOf(lapsed), certificationIdOf(expiring)]],
    );
    expect(rows).toEqual([
      { id: certificationIdOf(expiring), status: 'active' },
      { id: certificationIdOf(lapsed), status: 'expired' },
    ]);
    const verified = await t.app.inject({ method: 'GET', url: `/api/certifications/verify/WK-${member.user.id.slice(0, 8).toUpperCase()}` });
    expect(verified.json().valid).toBe(false);
  }, 90_000);
});
