export * from './roles';
export * from './permissions';
export * from './legacy';
export * from './rules';
export * from './grants';
export * from './defaults';
export * from './messages';
export * from './api';
