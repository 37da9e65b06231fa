import type { QuestionnaireAnswers } from '../../domain/partners/questionnaire';
import { sampleQuestionnaire } from '../../domain/partners/sampleQuestionnaire';

/** A complete, valid partner questionnaire for an applicant, as the onboarding wizard sends it. */
export const completeQuestionnaire = (applicant: { id: string; email: string; company: string }, overrides: Partial<QuestionnaireAnswers> = {}) => ({
  ...sampleQuestionnaire(applicant),
  user_id: applicant.id,
  ...overrides,
});
