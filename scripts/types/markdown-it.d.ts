/**
 * The part of markdown-it's API that scripts/render-interface-spec.ts uses. markdown-it comes with
 * the Allure CLI and ships no types of its own; @types/markdown-it is not a dependency.
 */
declare module 'markdown-it' {
  interface Token {
    type: string;
    tag: string;
    content: string;
    children: Token[] | null;
    attrSet(name: string, value: string): void;
  }

  interface CoreState {
    tokens: Token[];
  }

  interface Options {
    html?: boolean;
    linkify?: boolean;
    typographer?: boolean;
  }

  export default class MarkdownIt {
    constructor(options?: Options);
    core: { ruler: { push(name: string, rule: (state: CoreState) => void): void } };
    render(source: string): string;
  }
}
