// Text imports (`with { type: "text" }`) of SQL, data and UI assets embedded in the executable.
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.js" {
  const text: string;
  export default text;
}
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*.txt" {
  const text: string;
  export default text;
}
