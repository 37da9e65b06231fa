import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The floors of the code, lowest first: a file may import from its own floor and the floors below, never from one
 * above. A floor's folders are matched by prefix, first match wins (so a folder moved to `platform/` only needs its
 * line here changed). `mayImport` narrows a floor to the floors it names.
 */
const FLOORS: ReadonlyArray<{ floor: string; rank: number; folders: readonly string[]; mayImport?: readonly string[] }> = [
  { floor: 'domain', rank: 0, folders: ['domain/'] },
  { floor: 'contracts', rank: 1, folders: ['contracts/'] },
  // The shared runtime: configuration, database, event store and its adapters, the command handler and dispatch,
  // queues, upload storage, caches.
  { floor: 'platform', rank: 2, folders: ['platform/'] },
  // Read models: the projections and the queries over their tables.
  { floor: 'projections', rank: 3, folders: ['projections/'] },
  // A module's orchestration of several commands (and the reads between them), shared by routes, workers and seed.
  { floor: 'commands', rank: 4, folders: ['commands/'] },
  // The reactor and the jobs that react to events.
  { floor: 'workers', rank: 5, folders: ['workers/'] },
  { floor: 'api', rank: 6, folders: ['src/'] },
  // The browser bundle takes only pure code and types from below: never server code.
  { floor: 'web', rank: 7, folders: ['web/src/'], mayImport: ['domain', 'contracts', 'web'] },
];

/**
 * Type-only edges allowed where the floors or the cycle check would refuse them, each with its reason. `from` and
 * `to` are file paths (prefixes allowed). Type-only imports are erased: they order nothing at run time.
 */
const ALLOWED_TYPE_EDGES: ReadonlyArray<{ from: string; to: string; reason: string }> = [
  {
    from: 'workers/',
    to: 'workers/reactor.ts',
    reason: "each module's reaction table is typed with the reactor's Reaction types, and the reactor imports the tables to run them",
  },
];

const allowed = (edge: Edge) => edge.typeOnly && ALLOWED_TYPE_EDGES.some((rule) => edge.from.startsWith(rule.from) && edge.to.startsWith(rule.to));

/** Not part of the layering: tests and their helpers, load tests, build output. */
const SKIPPED = [/\.test\.tsx?$/, /^src\/testing\//, /^web\/e2e\//, /^load-tests\//, /\/dist\//, /^node_modules\//];

const ROOT = path.resolve(import.meta.dirname, '..');
const ALIASES: Record<string, string> = { '@domain/': 'domain/', '@contracts/': 'contracts/' };

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path.join(ROOT, relative)).isDirectory()) return sourceFiles(relative);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [relative] : [];
  });
}

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** Every import, re-export and dynamic import() of a file, with whether it brings types only. */
function importsOf(file: string): Array<{ specifier: string; typeOnly: boolean }> {
  const source = ts.createSourceFile(
    file,
    readFileSync(path.join(ROOT, file), 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((element) => element.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a specifier names inside the repository, or undefined for packages and Node's modules. */
function resolve(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
  let base: string;
  if (alias) base = ALIASES[alias] + specifier.slice(alias.length);
  else if (specifier.startsWith('.')) base = path.posix.join(path.posix.dirname(from), specifier);
  else return undefined;
  const stem = base.replace(/\.(js|mjs|ts|tsx)$/, '');
  return [base, `${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`, `${stem}/index.tsx`].find((candidate) => files.has(candidate));
}

const floorOf = (file: string) => FLOORS.find((floor) => floor.folders.some((folder) => file.startsWith(folder)));

function graph(): { files: string[]; edges: Edge[] } {
  const all = ['domain', 'contracts', 'platform', 'projections', 'commands', 'workers', 'src', 'web/src']
    .filter((dir) => {
      try {
        return statSync(path.join(ROOT, dir)).isDirectory();
      } catch {
        return false;
      }
    })
    .flatMap(sourceFiles);
  const files = all.filter((file) => !SKIPPED.some((pattern) => pattern.test(file)));
  const known = new Set(all);
  const edges = files.flatMap((from) =>
    importsOf(from).flatMap(({ specifier, typeOnly }) => {
      const to = resolve(from, specifier, known);
      return to && to !== from ? [{ from, to, typeOnly }] : [];
    }),
  );
  return { files, edges };
}

/** Imports that point to a higher floor (or, for a floor with `mayImport`, to a floor it does not name). */
function violations(edges: readonly Edge[]): string[] {
  return edges.flatMap((edge) => {
    const from = floorOf(edge.from);
    const to = floorOf(edge.to);
    if (!from || !to) return [];
    const refused = from.mayImport ? !from.mayImport.includes(to.floor) : to.rank > from.rank;
    if (!refused) return [];
    if (allowed(edge)) return [];
    return [`${edge.from} (${from.floor}) -> ${edge.to} (${to.floor})${edge.typeOnly ? ' [type only]' : ''}`];
  });
}

/** Strongly connected groups of more than one file (Tarjan), each listed with the files in it. */
function cycles(files: readonly string[], edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const edge of edges) if (!allowed(edge)) next.get(edge.from)?.push(edge.to);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const file of files) if (!index.has(file)) connect(file);
  return groups.sort((a, b) => a[0].localeCompare(b[0]));
}

describe('import graph', () => {
  const { files, edges } = graph();

  it('never imports from a higher floor', () => {
    const found = violations(edges);
    if (found.length) console.log(`${found.length} imports from a higher floor:\n${found.join('\n')}`);
    expect(found).toEqual([]);
  });

  it('has no import cycles between files', () => {
    const found = cycles(files, edges);
    if (found.length) console.log(`${found.length} import cycles:\n${found.map((group) => `  ${group.join(' <-> ')}`).join('\n')}`);
    expect(found).toEqual([]);
  });
});
