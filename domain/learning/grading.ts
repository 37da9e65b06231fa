/**
 * Grading a quiz: pure, shared by the enrolment decider and the tests. A question is right only when
 * the chosen set equals the right set exactly (no partial credit for multiple choice); the score is the
 * percent of questions answered right, rounded down, so a pass mark is never reached by rounding up.
 */

export interface GradedQuestion {
  id: string;
  correct: readonly number[];
  explanation: string | null;
}

export interface QuestionResult {
  questionId: string;
  chosen: number[];
  right: boolean;
}

export interface Grade {
  results: QuestionResult[];
  score: number;
  passed: boolean;
}

const sameSet = (a: readonly number[], b: readonly number[]) => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((value) => right.has(value));
};

export function grade(quiz: readonly GradedQuestion[], answers: readonly (readonly number[])[], passMark: number): Grade {
  const results = quiz.map((question, index) => {
    const chosen = [...new Set(answers[index] ?? [])].sort((a, b) => a - b);
    return { questionId: question.id, chosen, right: chosen.length > 0 && sameSet(chosen, question.correct) };
  });
  const right = results.filter((r) => r.right).length;
  const score = quiz.length === 0 ? 100 : Math.floor((right * 100) / quiz.length);
  return { results, score, passed: score >= passMark };
}
