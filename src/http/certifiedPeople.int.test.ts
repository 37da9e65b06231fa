import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifiedPeopleByOrganisation } from '../../projections/learning';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/** Learning feeds the programme: a person who passes a certifying course counts towards the organisation's tier and scorecard. */
let t: TestPortal;
let admin: Session;
let owner: Session;
let aisha: Session;

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  [admin, owner, aisha] = await Promise.all(
    ['admin@partnerhub.test', 'partner@partnerhub.test', 'aisha.khan@northwind.test'].map((email) => login(t.app, email)),
  );
});
afterAll(() => t?.close());

type Progress = { kind: string; current: number; target: number; gap: number; sentence: string | null };
const standing = async () => {
  const response = await as(t.app, owner)({ method: 'GET', url: '/api/programme/standing' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { organisation_id: string; next_tier: { id: string } | null; missing: Progress[] };
};
const certifiedOnScorecard = async (organisationId: string) => {
  const response = await as(t.app, owner)({ method: 'GET', url: `/api/scorecards/${organisationId}` });
  expect(response.statusCode, response.body).toBe(200);
  const history = response.json().data.history as Array<{ quarter: string; certified_people: number }>;
  return history[history.length - 1]?.certified_people ?? 0;
};

describe('certified people in the programme', () => {
  it('counts a team member who passes a certifying course in the standing and on the scorecard', async () => {
    const before = await standing();
    expect(before.next_tier).not.toBeNull();
    const tiers = (await as(t.app, owner)({ method: 'GET', url: '/api/programme/tiers' })).json().data.tiers as Array<{ id: string; requirements: unknown[] }>;
    const next = tiers.find((tier) => tier.id === before.next_tier!.id)!;
    const raised = await as(
      t.app,
      admin,
    )({
      method: 'PUT',
      url: `/api/programme/tiers/${next.id}`,
      payload: { requirements: [...next.requirements, { kind: 'certified_people', target: 40, window_months: 12 }] },
    });
    expect(raised.statusCode, raised.body).toBe(200);

    const measured = await standing();
    const counted = measured.missing.find((entry) => entry.kind === 'certified_people')!;
    const inReadModel = (await certifiedPeopleByOrganisation(t.db.pool, new Date())).get(measured.organisation_id) ?? 0;
    expect(counted).toMatchObject({ current: inReadModel, target: 40, gap: 40 - inReadModel });
    expect(counted.sentence).toBe(`${40 - inReadModel} more certified people`);
    const scorecardBefore = await certifiedOnScorecard(measured.organisation_id);

    const created = await as(
      t.app,
      admin,
    )({
      method: 'POST',
      url: '/api/courses',
      payload: {
        title: 'Ring redundancy for installers',
        summary: 'Rings that heal in 50 ms.',
        audience: ['partner_user'],
        level: 'advanced',
        estimated_minutes: 20,
        certifying: true,
        validity_days: 730,
        pass_mark: 100,
        lessons: [{ title: 'Rings', body: 'A ring blocks one port until a link fails.', media: null }],
        quiz: [{ question: 'What does a ring block?', choices: ['One port', 'Every port'], correct: [0], explanation: 'One port, so the ring has no loop.' }],
        status: 'published',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const course = created.json().data as { id: string; lessons: Array<{ id: string }> };
    expect((await as(t.app, aisha)({ method: 'POST', url: `/api/courses/${course.id}/enrol` })).statusCode).toBeLessThan(300);
    expect(
      (await as(t.app, aisha)({ method: 'POST', url: `/api/courses/${course.id}/progress`, payload: { lesson_id: course.lessons[0].id } })).statusCode,
    ).toBeLessThan(300);
    const attempt = await as(t.app, aisha)({ method: 'POST', url: `/api/courses/${course.id}/attempts`, payload: { answers: [[0]] } });
    expect(attempt.statusCode, attempt.body).toBeLessThan(300);
    expect(attempt.json().data).toMatchObject({ passed: true });

    const after = (await standing()).missing.find((entry) => entry.kind === 'certified_people')!;
    expect(after).toMatchObject({ current: inReadModel + 1, gap: 40 - inReadModel - 1 });
    expect(await certifiedOnScorecard(measured.organisation_id)).toBe(scorecardBefore + 1);
  });
});
