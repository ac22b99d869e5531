// "Test a visitor": describe a visitor (phone, country, language, time, query string) and see
// which rule, variant and destination the saved rules give them (POST /v1/qr/{id}/rules/test;
// nothing is recorded). It tests what is saved, so it says so while there are unsaved edits.
import type { JSX } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { ApiError, api, type RuleTestResult, type VisitorTest } from '../../api.ts';
import { announce } from '../../components/announce.ts';
import { Button, FormError } from '../../components/ui.tsx';
import { browserZone, isoOf } from './lifecycle-model.ts';
import { countryList, type RuleBody } from './rules-model.ts';

/** Typical user agents, so a test needs no copying of header strings. */
const AGENTS = [
  {
    label: 'iPhone (Safari)',
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  },
  {
    label: 'Android phone (Chrome)',
    ua: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  },
  {
    label: 'Windows computer (Edge)',
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
  },
] as const;

interface VisitorTestProps {
  itemId: string;
  /** The saved rules, to name the one that matched. */
  rules: readonly RuleBody[];
  dirty: boolean;
}

type Input = JSX.TargetedEvent<HTMLInputElement>;
type Select = JSX.TargetedEvent<HTMLSelectElement>;

export function VisitorTestBox({ itemId, rules, dirty }: VisitorTestProps) {
  const countries = useMemo(countryList, []);
  const [agent, setAgent] = useState(0);
  const [country, setCountry] = useState('');
  const [language, setLanguage] = useState(navigator.language);
  const [at, setAt] = useState('');
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<RuleTestResult | null>(null);
  const [error, setError] = useState<string | undefined>();

  const run = async () => {
    setBusy(true);
    setError(undefined);
    const visitor: VisitorTest = {
      userAgent: AGENTS[agent]?.ua ?? AGENTS[0].ua,
      ...(country ? { country } : {}),
      ...(language.trim() ? { language: language.trim() } : {}),
      ...(isoOf(at) ? { at: isoOf(at) ?? undefined } : {}),
      ...(query.trim() ? { query: Object.fromEntries(new URLSearchParams(query.trim().replace(/^\?/, ''))) } : {}),
    };
    try {
      const r = await api.testRules(itemId, visitor);
      setResult(r);
      announce(`${describe(r, rules).join(' ')} Sent to ${r.destination}`);
    } catch (err) {
      setResult(null);
      setError(err instanceof ApiError ? err.message : 'The test could not be run.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card visitor-test" aria-labelledby="visitor-test-h">
      <h2 id="visitor-test-h">Test a visitor</h2>
      <p class="hint">
        Which rule a visitor like this gets, with the rules as saved{dirty ? ': save your changes to test them' : ''}. Nothing is counted.
      </p>
      <div class="visitor-test__fields">
        <div class="field">
          <label for="vt-agent">Phone or computer</label>
          <select id="vt-agent" value={String(agent)} onChange={(e: Select) => setAgent(Number(e.currentTarget.value))}>
            {AGENTS.map((a, i) => (
              <option key={a.label} value={String(i)}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="vt-country">Country</label>
          <select id="vt-country" value={country} onChange={(e: Select) => setCountry(e.currentTarget.value)}>
            <option value="">Unknown</option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="vt-language">Language</label>
          <input
            id="vt-language"
            type="text"
            value={language}
            spellcheck={false}
            onInput={(e: Input) => setLanguage(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="vt-at">
            Time <span class="optional">(optional: now)</span>
          </label>
          <p class="hint" id="vt-at-hint">
            In your time zone, {browserZone()}
          </p>
          <input
            id="vt-at"
            type="datetime-local"
            value={at}
            aria-describedby="vt-at-hint"
            onInput={(e: Input) => setAt(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="vt-query">
            Query string <span class="optional">(optional)</span>
          </label>
          <input
            id="vt-query"
            type="text"
            value={query}
            spellcheck={false}
            placeholder="ref=flyer"
            onInput={(e: Input) => setQuery(e.currentTarget.value)}
          />
        </div>
      </div>
      <Button variant="secondary" busy={busy} onClick={() => void run()}>
        Test
      </Button>
      <FormError message={error} />
      {result ? (
        <div class="visitor-test__result" id="visitor-test-result">
          {describe(result, rules).map((line) => (
            <p key={line}>{line}</p>
          ))}
          <p>
            <span class="muted">Sent to:</span> <code>{result.destination}</code>
          </p>
        </div>
      ) : null}
    </section>
  );
}

/** The answer in words: which rule (by its place and name) and which variant. */
function describe(r: RuleTestResult, rules: readonly RuleBody[]): string[] {
  if (r.ruleId === null) return ['No rule matches: the code’s own address.'];
  const i = rules.findIndex((x) => x.id === r.ruleId);
  const name = r.ruleName ?? rules[i]?.name;
  const rule = `Rule ${i >= 0 ? i + 1 : '?'}${name ? ` “${name}”` : ''} matches`;
  return [r.variant === null || r.variant === undefined ? `${rule}.` : `${rule}, variant ${r.variant + 1} of its split.`];
}
