import { describe, expect, it } from 'vitest';
import { pictureProblem, uploadForm } from './upload.ts';

describe('uploadForm', () => {
  it('puts the fields before the file part, which keeps its name', () => {
    const form = uploadForm(new File(['png'], 'dusk.png', { type: 'image/png' }), { id: '42' });
    expect([...form.keys()]).toEqual(['id', 'file']);
    expect(form.get('id')).toBe('42');
    expect((form.get('file') as File).name).toBe('dusk.png');
  });

  it('sends a file alone when there is nothing to say about it', () => {
    expect([...uploadForm(new File(['x'], 'me.jpg')).keys()]).toEqual(['file']);
  });
});

describe('pictureProblem', () => {
  const MB = 1024 * 1024;
  it('takes png and jpeg up to the limit, by type or, without one, by name', () => {
    expect(pictureProblem({ name: 'a.png', type: 'image/png', size: MB }, MB)).toBeUndefined();
    expect(pictureProblem({ name: 'a.jpeg', type: 'image/jpeg', size: 10 }, MB)).toBeUndefined();
    expect(pictureProblem({ name: 'A.JPG', type: '', size: 10 }, MB)).toBeUndefined();
  });

  it('refuses other types before sizes, and anything over the limit', () => {
    expect(pictureProblem({ name: 'a.gif', type: 'image/gif', size: 10 }, MB)).toBe('type');
    expect(pictureProblem({ name: 'plan.pdf', type: 'application/pdf', size: 5 * MB }, MB)).toBe('type');
    expect(pictureProblem({ name: 'a.webp', type: '', size: 10 }, MB)).toBe('type');
    expect(pictureProblem({ name: 'a.png', type: 'image/png', size: MB + 1 }, MB)).toBe('size');
  });
});
