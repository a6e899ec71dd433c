// Every drizzle table; drizzle-kit reads this file to generate migrations.
export * from "./jobs";
export * from "./records";
export * from "./users";
export * from "./vocabularies";
export * from "./record-index";
export * from "./files";
export * from "./stats";
export * from "./oai";
export * from "./communities";
export * from "./requests";
export * from "./mail";
export * from "./access";
export * from "./sessions";
