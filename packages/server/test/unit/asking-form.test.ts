import { describe, expect, it } from 'vitest';
import { answerProblem, formProblem } from '../../src/asking/form.ts';

/** Every field shape a client renders (Claude Code since 2.1.76: each one of these). */
const FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 20, default: 'Ada' },
    email: { type: 'string', format: 'email' },
    ratio: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
    count: { type: 'integer', minimum: 1, default: 3 },
    confirm: { type: 'boolean', default: false },
    color: { type: 'string', enum: ['red', 'green'] },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
    titledTags: { type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }] } },
  },
  required: ['name', 'confirm'],
};

describe('elicitation forms', () => {
  it('accept every primitive field shape, with defaults', () => {
    expect(formProblem(FORM)).toBeUndefined();
  });

  it.each([
    [{ type: 'object' }, 'requestedSchema must be'],
    [{ type: 'object', properties: { a: { type: 'object' } } }, 'property "a" has type "object"'],
    [{ type: 'object', properties: { a: { type: 'string', format: 'uuid' } } }, 'unsupported format'],
    [{ type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }, 'multi-select'],
    [{ type: 'object', properties: { a: { type: 'integer', default: 'one' } } }, 'default that is not'],
    [{ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }, 'required must list'],
  ])('refuse %j, which clients cannot render', (schema, problem) => {
    expect(formProblem(schema)).toContain(problem);
  });

  it('take an answer that fits the form', () => {
    const content = {
      name: 'Grace',
      email: 'g@example.com',
      ratio: 0.25,
      count: 2,
      confirm: true,
      color: 'green',
      size: 'l',
      tags: ['a', 'c'],
      titledTags: ['x'],
    };
    expect(answerProblem(FORM, content)).toBeUndefined();
  });

  it.each([
    [{ confirm: true }, 'lacks the required field "name"'],
    [{ name: 'A', confirm: 'yes' }, '"confirm" is not a boolean'],
    [{ name: '', confirm: true }, '"name" is too short'],
    [{ name: 'A', confirm: true, count: 1.5 }, '"count" is not an integer'],
    [{ name: 'A', confirm: true, ratio: 2 }, '"ratio" is out of range'],
    [{ name: 'A', confirm: true, color: 'blue' }, '"color" is not one of the choices'],
    [{ name: 'A', confirm: true, size: 'Small' }, '"size" is not one of the choices'],
    [{ name: 'A', confirm: true, tags: ['a', 'b', 'c'] }, '"tags" has too many choices'],
    [{ name: 'A', confirm: true, tags: ['z'] }, '"tags" has values that are not choices'],
    [{ name: 'A', confirm: true, admin: true }, 'a field "admin" the form does not'],
    [{ name: 'A', confirm: true, ['x'.repeat(500)]: 1 }, '… (500 characters)'],
    ['not an object', 'no content object'],
  ])('refuse the answer %j', (content, problem) => {
    expect(answerProblem(FORM, content)).toContain(problem);
  });
});
