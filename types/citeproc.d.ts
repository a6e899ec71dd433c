// citeproc-js (npm `citeproc`) ships no types: the part of its API the formatted citations use.
declare module "citeproc" {
  interface CslSys {
    retrieveLocale(lang: string): string | undefined;
    retrieveItem(id: string): Record<string, unknown> | undefined;
  }
  class Engine {
    constructor(sys: CslSys, style: string, lang?: string, forceLang?: boolean);
    updateItems(ids: string[]): void;
    /** [formatting parameters, entries]; false when the style has no bibliography. */
    makeBibliography(): [Record<string, unknown>, string[]] | false;
    setOutputFormat(format: "html" | "text" | "rtf"): void;
  }
  const CSL: { Engine: typeof Engine };
  export default CSL;
}
