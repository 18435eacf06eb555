import type { Rng } from "../common/random.js";

/**
 * Word lists for templated text. The world is fictional on purpose (countries, politicians,
 * companies), so a model's pre-training knowledge cannot answer its questions.
 */
export const FIRST_NAMES = [
  "Mira",
  "Tomas",
  "Elena",
  "Jonah",
  "Priya",
  "Kofi",
  "Lena",
  "Mateo",
  "Aiko",
  "Samir",
  "Greta",
  "Idris",
  "Noor",
  "Felix",
  "Ines",
  "Darius",
  "Hana",
  "Oskar",
  "Leila",
  "Ruben",
  "Yara",
  "Anton",
  "Zofia",
  "Emeka",
] as const;
export const LAST_NAMES = [
  "Okafor",
  "Lindqvist",
  "Marchetti",
  "Haddad",
  "Novak",
  "Reyes",
  "Tanaka",
  "Brennan",
  "Achebe",
  "Varga",
  "Castillo",
  "Moreau",
  "Petrov",
  "Nakamura",
  "Osei",
  "Kowalski",
  "Ferreira",
  "Halvorsen",
  "Duarte",
  "Iqbal",
] as const;
export const CITIES = [
  "Lisbon",
  "Nairobi",
  "Osaka",
  "Rotterdam",
  "Montreal",
  "Santiago",
  "Krakow",
  "Bangalore",
  "Tallinn",
  "Accra",
  "Porto Alegre",
  "Gothenburg",
  "Da Nang",
  "Cape Town",
  "Valencia",
  "Leeds",
] as const;
/** fictional countries and regions */
export const COUNTRIES = [
  "Carvania",
  "Veltria",
  "Ostmark",
  "Tessaly",
  "Orun",
  "Dessa",
  "Marlow Isles",
  "Kestria",
] as const;
export const NEWS_DOMAINS = [
  "dailyledger.example",
  "globewire.example",
  "northstar-news.example",
  "thecourier.example",
  "marketpulse.example",
  "civicreport.example",
  "techbeat.example",
  "harborpost.example",
] as const;
export const SECTORS = [
  "logistics",
  "semiconductors",
  "retail",
  "biotech",
  "energy",
  "software",
  "shipping",
  "agriculture",
] as const;
export const FILLER_COMPANIES = [
  "Pellas Robotics",
  "Arden Freight",
  "Kestrel Foods",
  "Solace Networks",
  "Meridian Mining",
  "Brook & Vale",
  "Orchid Analytics",
  "Granite Line Rail",
  "Vireo Pharma",
  "Copperfield Media",
] as const;

export function personName(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

/** fill `{slot}` placeholders; unknown slots are left as-is (caught by tests of generated text) */
export function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => slots[k] ?? m);
}

/** a lowercase url slug from a title */
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}
