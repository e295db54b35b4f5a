import { useCallback, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { Check, ValidationKey } from './validators.ts';

/** A field's check, the values its message needs, and whether it must be filled (announced as required). */
export interface LightRule {
  check: Check;
  vars?: Record<string, string | number>;
  required?: boolean;
}

/** A problem shown under a field: a catalogue key with its values, or a text the server or a button gave. */
export type FieldProblem = { key: ValidationKey; vars?: Record<string, string | number> } | { text: string };

const isEmpty = (value: string) => value === '';

/**
 * The state of a public page's form without antd's Form: values, the problem under each field, and the
 * same timing as useBlurRules (components/form-rules.ts) gives antd's forms. A filled field is checked on
 * leaving it, an emptied one as it is emptied, every field when the form is sent; typing into a field takes
 * its problem away until it is left again. `dependents` names the fields checked again when another changes
 * (the confirmation when the password does), once they hold something.
 */
export function useLightForm<K extends string>({
  initial,
  rules,
  dependents = {},
}: {
  initial: Record<K, string>;
  /** Called with the current values, so a rule may depend on another field. */
  rules: (values: Record<NoInfer<K>, string>) => Partial<Record<NoInfer<K>, LightRule>>;
  dependents?: Partial<Record<NoInfer<K>, Array<NoInfer<K>>>>;
}) {
  const formId = useId();
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<Partial<Record<K, FieldProblem>>>({});
  // The newest values for handlers that run before React has rendered the last change.
  const current = useRef(values);
  current.current = values;

  const problemOf = (name: K, all: Record<K, string>): FieldProblem | undefined => {
    const rule = rules(all)[name];
    if (!rule) return undefined;
    const key = rule.check(all[name]);
    return key ? { key, vars: rule.vars } : undefined;
  };

  const setProblem = useCallback((name: K, problem: FieldProblem | undefined) => {
    setProblems((before) => {
      if (!problem && !(name in before)) return before;
      const next = { ...before };
      if (problem) next[name] = problem;
      else delete next[name];
      return next;
    });
  }, []);

  const setValue = (name: K, value: string) => {
    const next = { ...current.current, [name]: value };
    current.current = next;
    setValues(next);
    return next;
  };

  const onChange = (name: K, value: string) => {
    const next = setValue(name, value);
    setProblem(name, isEmpty(value) ? problemOf(name, next) : undefined);
    for (const dependent of dependents[name] ?? []) if (!isEmpty(next[dependent])) setProblem(dependent, problemOf(dependent, next));
  };

  const onBlur = (name: K) => {
    const value = current.current[name];
    setProblem(name, isEmpty(value) ? undefined : problemOf(name, current.current));
  };

  /** Checks the named fields (all by default) and shows their problems; true when they are all fine. */
  const validate = (names: K[] = Object.keys(current.current) as K[]) => {
    let fine = true;
    for (const name of names) {
      const problem = problemOf(name, current.current);
      if (problem) fine = false;
      setProblem(name, problem);
    }
    return fine;
  };

  /** What a field element takes: its value, its handlers and what assistive technology is told. */
  const field = (name: K) => {
    const rule = rules(values)[name];
    const errorId = `${formId}-${name}-error`;
    return {
      name: name as string,
      value: values[name],
      onChange: (event: ChangeEvent<HTMLInputElement>) => onChange(name, event.target.value),
      onBlur: () => onBlur(name),
      problem: problems[name],
      errorId,
      required: rule?.required ?? true,
    };
  };

  const handleSubmit = (onValid: (values: Record<K, string>) => void | Promise<void>) => (event: FormEvent) => {
    event.preventDefault();
    if (validate()) void onValid(current.current);
  };

  return { values, field, setValue, setProblem, validate, handleSubmit };
}

export type LightForm<K extends string> = ReturnType<typeof useLightForm<K>>;
export type LightFieldProps = ReturnType<LightForm<string>['field']>;
