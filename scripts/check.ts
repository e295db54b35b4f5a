// The type checks, and the lint rules that need types, on one TypeScript program per tsconfig: each program is built
// and checked once, its diagnostics printed as `tsc --noEmit -p <tsconfig>` prints them, and then ESLint runs the
// typed rules over the program's own files with that same program (typescript-eslint's `parserOptions.programs`),
// so the checker's work is not done a second time. The untyped rules stay in `eslint .` (`npm run lint`).
import { ESLint, type Linter } from 'eslint';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import tseslint from 'typescript-eslint';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
/** The programs of the repository: each source file is in one of them (tsconfig.check-node.json says why three). */
const TSCONFIGS = ['tsconfig.check-node.json', 'apps/web/tsconfig.json', 'e2e/tsconfig.json'];

/** Rules that need the type checker, and so cannot run in `eslint .` without building every program again. */
const TYPED_RULES: Linter.RulesRecord = {
  '@typescript-eslint/no-floating-promises': 'error',
  // A promise-returning handler in a JSX attribute is React's usual `onClick={async () => ...}`.
  '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
};
const LINTED = /(?<!\.d)\.(ts|tsx|mts|cts)$/;

const formatHost: ts.FormatDiagnosticsHost = {
  getCurrentDirectory: () => ts.sys.getCurrentDirectory(),
  getCanonicalFileName: (fileName) => (ts.sys.useCaseSensitiveFileNames ? fileName : fileName.toLowerCase()),
  getNewLine: () => ts.sys.newLine,
};

/** Reads a tsconfig as `tsc -p` does; a config that cannot be read at all ends the run. */
function parseTsconfig(path: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        process.stdout.write(ts.formatDiagnostic(diagnostic, formatHost));
        process.exit(1);
      },
    },
  );
  if (!parsed) throw new Error(`${path} could not be read`);
  return parsed;
}

/**
 * The diagnostics `tsc --noEmit` reports, in its order (semantic ones only when the files parse and the options
 * hold), for the files `checked` answers true for: a file an earlier program checked (the server the journeys
 * import, the contract the web imports) is read for its types but not checked again, which was most of the
 * journeys' program's time.
 */
function diagnosticsOf(program: ts.Program, checked: (file: ts.SourceFile) => boolean): readonly ts.Diagnostic[] {
  const files = program.getSourceFiles().filter(checked);
  const all = [...program.getConfigFileParsingDiagnostics()];
  const configCount = all.length;
  for (const file of files) all.push(...program.getSyntacticDiagnostics(file));
  if (all.length === configCount) {
    all.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    if (all.length === configCount) for (const file of files) all.push(...program.getSemanticDiagnostics(file));
  }
  return ts.sortAndDeduplicateDiagnostics(all);
}

function report(diagnostics: readonly ts.Diagnostic[], pretty: boolean): number {
  for (const diagnostic of diagnostics) {
    process.stdout.write(
      pretty
        ? ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost) + formatHost.getNewLine()
        : ts.formatDiagnostic(diagnostic, formatHost),
    );
  }
  const errors = diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (pretty && errors.length > 0) {
    const files = new Set(errors.map((diagnostic) => diagnostic.file?.fileName).filter(Boolean));
    process.stdout.write(
      `\nFound ${errors.length} error${errors.length === 1 ? '' : 's'} in ${files.size} file${files.size === 1 ? '' : 's'}.\n\n`,
    );
  }
  return errors.length;
}

/** CPU seconds this process has used, which CI's budget is counted in. */
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Checks and lints one program; answers whether it is clean. */
async function checkProgram(tsconfig: string): Promise<boolean> {
  const cpuAtStart = cpuSeconds();
  const parsed = parseTsconfig(resolve(root, tsconfig));
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  // As tsc: colours and the lines in question on a terminal, one line per diagnostic in a log.
  const pretty =
    typeof parsed.options.pretty === 'boolean' ? parsed.options.pretty : process.stdout.isTTY === true && !process.env.NO_COLOR;
  // A file two programs hold (the contract, read by the web too) is checked and linted with the first that holds it.
  const earlier = new Set(
    TSCONFIGS.slice(0, TSCONFIGS.indexOf(tsconfig)).flatMap((other) => parseTsconfig(resolve(root, other)).fileNames),
  );
  // As tsc with skipLibCheck: declaration files are read, not checked, and packages are not ours to check.
  const ours = (file: ts.SourceFile) =>
    !file.isDeclarationFile && !program.isSourceFileFromExternalLibrary(file) && !earlier.has(file.fileName);
  const typeErrors = report(diagnosticsOf(program, ours), pretty);
  const cpuAfterTypes = cpuSeconds();
  const files = parsed.fileNames.filter((file) => LINTED.test(file) && !earlier.has(file));
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.{ts,tsx,mts,cts}'],
        languageOptions: { parser: tseslint.parser, parserOptions: { programs: [program] } },
        plugins: { '@typescript-eslint': tseslint.plugin },
        // Disable comments for the untyped rules are `eslint .`'s to judge.
        linterOptions: { reportUnusedDisableDirectives: 'off' },
        rules: TYPED_RULES,
      },
    ],
  });
  const results: ESLint.LintResult[] = [];
  // The text the program was built from, so that the tree and the text ESLint reports on are the same.
  for (const file of files) results.push(...(await eslint.lintText(program.getSourceFile(file)!.text, { filePath: file })));
  const lintProblems = results.reduce((sum, result) => sum + result.errorCount + result.warningCount, 0);
  if (lintProblems > 0) process.stdout.write(await (await eslint.loadFormatter('stylish')).format(results));
  const cpu = (at: number, from: number) => (at - from).toFixed(0);
  console.log(
    `${tsconfig}: ${typeErrors} type errors (${cpu(cpuAfterTypes, cpuAtStart)} s CPU), ` +
      `${lintProblems} typed lint problems in ${files.length} files (${cpu(cpuSeconds(), cpuAfterTypes)} s CPU)`,
  );
  return typeErrors === 0 && lintProblems === 0;
}

const only = process.argv[2];
if (only) {
  if (!TSCONFIGS.includes(only)) throw new Error(`${only} is none of ${TSCONFIGS.join(', ')}`);
  if (!(await checkProgram(only))) process.exitCode = 1;
} else {
  // One process a program: a program's memory (1-1.5 GB) is given back before the next is built, which in one
  // process it was not (4.3 GB, and the last program's check took three times as long, collecting garbage).
  let clean = true;
  for (const tsconfig of TSCONFIGS) {
    const { status } = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, tsconfig], { stdio: 'inherit' });
    if (status !== 0) clean = false;
  }
  if (!clean) process.exitCode = 1;
}
