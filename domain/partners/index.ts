export * from './application';
export * from './questionnaire';
export * from './partners';
export * from './categoryDefaults';
