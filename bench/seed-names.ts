/**
 * The people of the synthetic directory (seed-data.ts): given and family names in
 * several scripts, with accents, apostrophes and multi-part surnames, a dozen
 * departments and a list of titles, each drawn from a hash of the user's index, so
 * user `i` is the same person in every run. The shares are chosen so that the search
 * benchmark (search-shapes.ts) has queries of known reach at any size:
 *
 * - the García family (García, García-López, García Márquez): 10 % of users, so
 *   `q=garc` matches about 10 %; no other word starts with `gar`;
 * - Ødegård: 40 users per million, so `q=odeg` (ø and å folded) matches a few dozen;
 * - José, José Luis, María José: 3 % of the users with a Latin-script given name
 *   (85 % of all), so `q=jose gar` matches about 0.25 %; no other word starts with `jose`;
 * - department Engineering: 10 %; Internal Audit: 0.4 %.
 */

/** A name as written, and the ASCII form a username and an email address are made of. */
export interface Name {
  text: string;
  ascii: string;
}

/** How a culture writes a full name. */
type Order = 'given-family' | 'family-given' | 'family-given-joined';

interface Culture {
  order: Order;
  given: readonly Name[];
  family: readonly Name[];
}

/** `text` with its ASCII form made by folding (accents off, letters only); `ascii` given for other scripts. */
const n = (text: string, ascii?: string): Name => ({
  text,
  ascii: ascii ?? text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss').replace(/[øØ]/g, 'o').replace(/[łŁ]/g, 'l').replace(/[đĐ]/g, 'd').replace(/ı/g, 'i').replace(/[ðÐ]/g, 'd').replace(/[þÞ]/g, 'th').replace(/[æÆ]/g, 'ae').toLowerCase().replace(/[^a-z0-9]/g, ''),
});

const LATIN_GIVEN: readonly Name[] = [
  'Ana', 'Łukasz', 'Seán', 'Zoë', 'Søren', 'Anne-Marie', 'Jean-Luc', 'Björn', 'François', 'Chloé', 'Jürgen', 'Małgorzata',
  'Siobhán', 'Núria', 'João', 'Inês', 'Zoltán', 'Dušan', 'Ágnes', 'Agnieszka', 'Mikael', 'Åsa', 'Emma', 'Olivia', 'Liam',
  'Noah', 'Mateo', 'Lucía', 'Sofía', 'Valentina', 'Hugo', 'Léa', 'Élodie', 'Matthias', 'Katharina', 'Lukas', 'Giulia',
  'Alessandro', 'Francesca', 'Pieter', 'Saskia', 'Daan', 'Oliver', 'Charlotte', 'Amelia', 'Thomas', 'Sarah', 'David',
  'Michael', 'Laura', 'Daniel', 'Hannah', 'Mohammed', 'Fatima', 'Omar', 'Aisha', 'Yusuf', 'Chidi', 'Ngozi', 'Kwame',
  'Ama', 'Priya', 'Arjun', 'Ananya', 'Rohan', 'Deepika', 'Wei', 'Mei', 'Hiroshi', 'Yuki', 'Minh', 'Linh', 'Aleksandra',
  'Dmitri', 'Olga', 'Mehmet', 'Ayşe', 'Elif', 'Nikolaos', 'Eleni', 'Ólafur', 'Sigrún', 'Helga', 'Tomás', 'Íñigo', 'Renée',
].map((text) => n(text));

/** 3 % of Latin-script given names: what `q=jose` finds. */
const JOSE: readonly Name[] = [n('José'), n('José Luis'), n('María José')];

const LATIN_FAMILY: readonly Name[] = [
  'Müller', 'Wójcik', "O'Brien", "d'Arc", 'de la Cruz', 'van der Berg', 'Fernández de Córdoba', 'Ó Súilleabháin', 'Dvořák',
  'Öztürk', 'Şahin', 'Lefèvre', 'Nowak', 'Kowalczyk', 'Schröder', 'Weiß', 'Fernández', 'Martínez', 'Rodríguez', 'González',
  'Pérez', 'Sánchez', 'Ramírez', 'Torres', 'Núñez', 'Silva', 'Santos', 'Conceição', 'Gonçalves', 'dos Santos', 'Rossi',
  'Bianchi', 'Ferrari', 'Esposito', 'Romano', 'Moreau', 'Dubois', 'Lefebvre', 'Bonnet', 'Schmidt', 'Schneider', 'Fischer',
  'Becker', 'Hoffmann', 'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Taylor', 'Wilson', 'Evans', 'Thompson', 'Walker',
  'Kelly', 'Murphy', 'Byrne', 'MacDonald', 'Campbell', 'Jensen', 'Nielsen', 'Hansen', 'Søndergaard', 'Lindqvist',
  'Johansson', 'Karlsson', 'Nyström', 'Virtanen', 'Mäkinen', 'Korhonen', 'Novák', 'Horváth', 'Kovács', 'Szabó', 'Popescu',
  'Ionescu', 'Petrović', 'Jovanović', 'Yılmaz', 'Kaya', 'Demir', 'Haddad', 'Khalil', 'Mansour', 'Okafor', 'Adeyemi',
  'Mensah', 'Kariuki', 'Patel', 'Sharma', 'Singh', 'Kaur', 'Iyer', 'Reddy', 'Cohen', 'Levi', 'van Dijk', 'de Vries',
  'van den Broek', 'Bakker', 'Mac Giolla Phádraig', 'Ní Bhriain', 'Þórsdóttir', 'Guðmundsson', 'Ørsted', 'Łęcki',
].map((text) => n(text));

/** 10 % of users: what `q=garc` finds. */
const GARCIA: readonly Name[] = [n('García'), n('García-López'), n('García Márquez')];
/** 40 users per million: what `q=odeg` finds. */
const RARE: Name = n('Ødegård');

/** Cultures whose names are written in other scripts, each with its own given names. */
const SCRIPT_CULTURES: readonly Culture[] = [
  {
    order: 'family-given-joined',
    family: [n('王', 'wang'), n('李', 'li'), n('张', 'zhang'), n('刘', 'liu'), n('陈', 'chen'), n('黄', 'huang')],
    given: [n('小明', 'xiaoming'), n('伟', 'wei'), n('芳', 'fang'), n('静', 'jing'), n('磊', 'lei'), n('秀英', 'xiuying'), n('子涵', 'zihan')],
  },
  {
    order: 'family-given',
    family: [n('佐藤', 'sato'), n('鈴木', 'suzuki'), n('高橋', 'takahashi'), n('田中', 'tanaka'), n('渡辺', 'watanabe')],
    given: [n('太郎', 'taro'), n('花子', 'hanako'), n('陽翔', 'haruto'), n('結衣', 'yui'), n('蓮', 'ren')],
  },
  {
    order: 'family-given-joined',
    family: [n('김', 'kim'), n('이', 'lee'), n('박', 'park'), n('최', 'choi'), n('정', 'jung')],
    given: [n('민준', 'minjun'), n('서연', 'seoyeon'), n('지호', 'jiho'), n('하은', 'haeun')],
  },
  {
    order: 'family-given',
    family: [n('Nguyễn'), n('Trần'), n('Lê'), n('Phạm'), n('Hoàng'), n('Huỳnh'), n('Đặng')],
    given: [n('Văn An'), n('Thị Lan'), n('Minh Anh'), n('Đức Huy'), n('Thu Hà'), n('Quốc Bảo')],
  },
  {
    order: 'given-family',
    family: [n('Иванова', 'ivanova'), n('Смирнов', 'smirnov'), n('Кузнецова', 'kuznetsova'), n('Попов', 'popov'), n('Шевченко', 'shevchenko')],
    given: [n('Анна', 'anna'), n('Дмитрий', 'dmitriy'), n('Екатерина', 'ekaterina'), n('Сергей', 'sergey'), n('Юлия', 'yuliya')],
  },
  {
    order: 'given-family',
    family: [n('Παπαδόπουλος', 'papadopoulos'), n('Χατζηδάκης', 'chatzidakis'), n('Οικονόμου', 'oikonomou')],
    given: [n('Γιώργος', 'giorgos'), n('Ελένη', 'eleni'), n('Νίκος', 'nikos'), n('Μαρία', 'maria')],
  },
  {
    order: 'given-family',
    family: [n('حداد', 'haddad'), n('الخطيب', 'alkhatib'), n('منصور', 'mansour')],
    given: [n('محمد', 'muhammad'), n('فاطمة', 'fatima'), n('علي', 'ali'), n('ليلى', 'layla')],
  },
  {
    order: 'given-family',
    family: [n('כהן', 'cohen'), n('לוי', 'levi'), n('מזרחי', 'mizrahi')],
    given: [n('נועה', 'noa'), n('יוסי', 'yossi'), n('תמר', 'tamar')],
  },
];

/** Departments with their shares in parts per million: Engineering holds 10 %. */
const DEPARTMENTS: readonly (readonly [string, number])[] = [
  ['Engineering', 100_000], ['Operations', 95_000], ['Customer Support', 95_000], ['Sales', 95_000], ['Marketing', 90_000],
  ['Finance', 90_000], ['Manufacturing', 90_000], ['Logistics', 90_000], ['Human Resources', 80_000],
  ['Information Technology', 80_000], ['Legal', 91_000], ['Internal Audit', 4_000],
];

const TITLES = [
  'Software Engineer', 'Senior Software Engineer', 'Staff Engineer', 'Engineering Manager', 'Account Executive',
  'Support Specialist', 'Financial Analyst', 'Product Manager', 'Director', 'Vice President', 'Data Scientist',
  'Technician', 'Recruiter', 'Counsel', 'Accountant', 'Designer', 'Logistics Coordinator', 'Operations Manager',
  'Marketing Specialist', 'Team Lead', 'Auditor', 'Intern',
];

/** A small integer hash, so choices look random yet are stable per `i`. */
export function mix(i: number, salt: number): number {
  let x = (i ^ salt) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const pickOf = <T>(list: readonly T[], i: number, salt: number): T => list[mix(i, salt) % list.length] as T;

export interface Person {
  given: Name;
  family: Name;
  /** The full name as its culture writes it. */
  display: string;
  department: string;
  title: string;
}

function display(order: Order, given: string, family: string): string {
  if (order === 'given-family') return `${given} ${family}`;
  return order === 'family-given' ? `${family} ${given}` : `${family}${given}`;
}

/** Seeded person `i`. */
export function personOf(i: number): Person {
  const familyDraw = mix(i, 0x51) % 1_000_000;
  const latinGiven = () => (mix(i, 0x52) % 1000 < 30 ? pickOf(JOSE, i, 0x53) : pickOf(LATIN_GIVEN, i, 0x53));
  let culture: Culture;
  let given: Name;
  let family: Name;
  if (familyDraw < 100_000) {
    [given, family, culture] = [latinGiven(), pickOf(GARCIA, i, 0x54), { order: 'given-family', given: [], family: [] }];
  } else if (familyDraw < 100_040) {
    [given, family, culture] = [latinGiven(), RARE, { order: 'given-family', given: [], family: [] }];
  } else if (familyDraw < 250_040) {
    culture = pickOf(SCRIPT_CULTURES, i, 0x55);
    [given, family] = [pickOf(culture.given, i, 0x56), pickOf(culture.family, i, 0x57)];
  } else {
    [given, family, culture] = [latinGiven(), pickOf(LATIN_FAMILY, i, 0x54), { order: 'given-family', given: [], family: [] }];
  }
  let departmentDraw = mix(i, 0x58) % 1_000_000;
  let department = DEPARTMENTS[0]?.[0] as string;
  for (const [name, share] of DEPARTMENTS) {
    department = name;
    if (departmentDraw < share) break;
    departmentDraw -= share;
  }
  return { given, family, display: display(culture.order, given.text, family.text), department, title: pickOf(TITLES, i, 0x59) };
}
