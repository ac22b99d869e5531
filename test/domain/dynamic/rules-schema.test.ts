import { describe, expect, it } from 'vitest';
import { Compile } from 'typebox/compile';
import {
  BROWSER_VALUES,
  FallbackUrls,
  Rule,
  RuleCondition,
  Rules,
  RulesTestRequest,
  RulesTestResult,
  SplitVariant,
  Utm,
} from '../../../src/domain/dynamic/rules-schema.ts';
import { SCHEMA_NAME } from '../../../src/domain/schema-kit.ts';
import { classifyUserAgent } from '../../../src/domain/scans/classify-agent.ts';
import { HUMAN_AGENTS } from '../scans/user-agents.ts';

const rule = { id: 'r_1', name: 'iPhones', conditions: [{ type: 'os', op: 'in', values: ['ios'] }], destination: 'https://example.com' };

describe('rule schemas', () => {
  it('are named components of the OpenAPI document', () => {
    const names = [RuleCondition, SplitVariant, Rule, Rules, Utm, FallbackUrls, RulesTestRequest, RulesTestResult].map(
      (s) => (s as unknown as Record<string, unknown>)[SCHEMA_NAME],
    );
    expect(names).toEqual(['RuleCondition', 'SplitVariant', 'Rule', 'Rules', 'Utm', 'FallbackUrls', 'RulesTestRequest', 'RulesTestResult']);
  });

  it('take a rule and leave the meaning of values to checkRules', () => {
    const rules = Compile(Rules);
    expect(rules.Check([rule])).toBe(true);
    expect(rules.Check([{ ...rule, conditions: [{ type: 'planet', op: 'near', values: ['mars'] }] }])).toBe(true);
    expect(rules.Check([{ ...rule, extra: 1 }])).toBe(false);
    expect(rules.Check(Array(26).fill(rule))).toBe(false);
    expect(rules.Check([{ ...rule, conditions: Array(11).fill(rule.conditions[0]) }])).toBe(false);
    expect(rules.Check([{ ...rule, conditions: [{ type: 'os', op: 'in', values: Array(51).fill('ios') }] }])).toBe(false);
  });

  it('bound utm values and the test request', () => {
    expect(Compile(Utm).Check({ source: 'x'.repeat(200) })).toBe(true);
    expect(Compile(Utm).Check({ source: 'x'.repeat(201) })).toBe(false);
    expect(Compile(Utm).Check({ id: 'x' })).toBe(false);
    const request = Compile(RulesTestRequest);
    expect(request.Check({ userAgent: 'x', country: 'DE', language: 'de', at: '2026-03-01T09:00:00Z', query: { a: 'b' } })).toBe(true);
    expect(request.Check({ query: { a: 1 } })).toBe(false);
    expect(request.Check({ at: 'soon' })).toBe(false);
    expect(Compile(RulesTestResult).Check({ ruleId: null, ruleName: null, variant: null, destination: 'https://example.com' })).toBe(true);
  });

  it('know every browser family classifyUserAgent names for a human', () => {
    for (const { ua } of HUMAN_AGENTS) {
      const browser = classifyUserAgent(ua).browser;
      if (browser !== null) expect(BROWSER_VALUES, browser).toContain(browser.toLowerCase());
    }
  });
});
