// The CSL styles and locales of data/csl/, imported as text so they are embedded in the executable.
// One line per file; data/csl/README.md says where they come from.
import apa from "../../data/csl/styles/apa.csl" with { type: "text" };
import harvardCiteThemRight from "../../data/csl/styles/harvard-cite-them-right.csl" with { type: "text" };
import modernLanguageAssociation from "../../data/csl/styles/modern-language-association.csl" with { type: "text" };
import vancouver from "../../data/csl/styles/vancouver.csl" with { type: "text" };
import chicagoFullnoteBibliography from "../../data/csl/styles/chicago-fullnote-bibliography.csl" with { type: "text" };
import ieee from "../../data/csl/styles/ieee.csl" with { type: "text" };
import enUS from "../../data/csl/locales/locales-en-US.xml" with { type: "text" };
import enGB from "../../data/csl/locales/locales-en-GB.xml" with { type: "text" };
import deDE from "../../data/csl/locales/locales-de-DE.xml" with { type: "text" };
import frFR from "../../data/csl/locales/locales-fr-FR.xml" with { type: "text" };
import esES from "../../data/csl/locales/locales-es-ES.xml" with { type: "text" };
import itIT from "../../data/csl/locales/locales-it-IT.xml" with { type: "text" };
import nlNL from "../../data/csl/locales/locales-nl-NL.xml" with { type: "text" };
import ptPT from "../../data/csl/locales/locales-pt-PT.xml" with { type: "text" };
import ptBR from "../../data/csl/locales/locales-pt-BR.xml" with { type: "text" };
import daDK from "../../data/csl/locales/locales-da-DK.xml" with { type: "text" };
import svSE from "../../data/csl/locales/locales-sv-SE.xml" with { type: "text" };
import nbNO from "../../data/csl/locales/locales-nb-NO.xml" with { type: "text" };
import fiFI from "../../data/csl/locales/locales-fi-FI.xml" with { type: "text" };
import plPL from "../../data/csl/locales/locales-pl-PL.xml" with { type: "text" };
import zhCN from "../../data/csl/locales/locales-zh-CN.xml" with { type: "text" };
import jaJP from "../../data/csl/locales/locales-ja-JP.xml" with { type: "text" };

/** The citation styles InvenioRDM offers, by its names; the first is the default. */
export const CSL_STYLES: Record<string, string> = {
  apa,
  "harvard-cite-them-right": harvardCiteThemRight,
  "modern-language-association": modernLanguageAssociation,
  vancouver,
  "chicago-fullnote-bibliography": chicagoFullnoteBibliography,
  ieee,
};

// Bun's types describe *.xml imports as parsed documents; imported `with { type: "text" }` they are strings.
const text = (imported: unknown) => imported as string;

/** CSL locales by tag; en-US first (the default, and citeproc-js's own fallback). */
export const CSL_LOCALES: Record<string, string> = {
  "en-US": text(enUS),
  "en-GB": text(enGB),
  "de-DE": text(deDE),
  "fr-FR": text(frFR),
  "es-ES": text(esES),
  "it-IT": text(itIT),
  "nl-NL": text(nlNL),
  "pt-PT": text(ptPT),
  "pt-BR": text(ptBR),
  "da-DK": text(daDK),
  "sv-SE": text(svSE),
  "nb-NO": text(nbNO),
  "fi-FI": text(fiFI),
  "pl-PL": text(plPL),
  "zh-CN": text(zhCN),
  "ja-JP": text(jaJP),
};
