//! A recipient's time zone, for quiet hours: the contact's own zone, else one told from the
//! number (NANP area code, else the country calling code's main zone), else the tenant's fallback
//! (UTC unless set). Tables are by region; an area code or country not listed falls through.

use chrono_tz::Tz;

/// NANP area codes by zone (US states and territories, Canada, the Caribbean). A code used in a
/// state split between zones goes to the zone of most of its numbers.
const NANP: &[(&str, &[u16])] = &[
    (
        "America/New_York",
        &[
            201, 202, 203, 207, 212, 215, 216, 223, 227, 229, 231, 234, 239, 240, 248, 252, 267, 269, 272,
            276, 283, 301, 302, 304, 305, 313, 315, 321, 326, 330, 332, 336, 339, 340, 347, 351, 352, 380,
            386, 401, 404, 407, 410, 412, 413, 419, 423, 434, 440, 443, 445, 448, 470, 475, 478, 484, 502,
            508, 513, 516, 517, 518, 540, 551, 561, 567, 570, 571, 585, 586, 603, 606, 607, 609, 610, 614,
            616, 617, 631, 640, 645, 646, 656, 659, 667, 678, 680, 681, 689, 703, 704, 706, 716, 717, 718,
            724, 727, 732, 734, 740, 743, 754, 757, 762, 765, 770, 772, 774, 781, 786, 802, 803, 804, 810,
            813, 814, 828, 835, 838, 839, 843, 845, 848, 850, 854, 856, 857, 859, 860, 862, 863, 864, 865,
            878, 904, 908, 910, 912, 914, 917, 919, 929, 934, 937, 941, 947, 954, 959, 973, 978, 980, 984,
            989,
        ],
    ),
    (
        "America/Chicago",
        &[
            205, 210, 214, 217, 218, 219, 224, 225, 228, 251, 254, 256, 260, 262, 270, 274, 281, 309, 312,
            314, 316, 317, 318, 319, 320, 331, 334, 337, 346, 361, 364, 402, 405, 409, 414, 417, 430, 463,
            464, 469, 479, 501, 504, 507, 512, 515, 531, 534, 539, 563, 573, 574, 580, 601, 608, 612, 615,
            618, 620, 629, 630, 636, 641, 651, 660, 662, 682, 708, 712, 713, 715, 726, 731, 737, 763, 769,
            773, 779, 785, 806, 812, 815, 816, 817, 830, 832, 847, 870, 872, 901, 903, 913, 918, 920, 931,
            936, 938, 940, 945, 952, 956, 972, 979, 985,
        ],
    ),
    ("America/Denver", &[303, 307, 385, 406, 435, 505, 575, 605, 701, 719, 720, 801, 915, 970, 983]),
    ("America/Phoenix", &[480, 520, 602, 623, 928]),
    ("America/Boise", &[208, 986]),
    (
        "America/Los_Angeles",
        &[
            206, 209, 213, 253, 279, 310, 323, 341, 350, 360, 408, 415, 424, 425, 442, 458, 503, 509, 510,
            530, 541, 559, 562, 564, 619, 626, 628, 650, 657, 661, 669, 702, 707, 714, 725, 747, 760, 775,
            805, 818, 820, 831, 840, 858, 909, 916, 925, 949, 951, 971,
        ],
    ),
    ("America/Anchorage", &[907]),
    ("Pacific/Honolulu", &[808]),
    ("America/Puerto_Rico", &[787, 939]),
    ("Pacific/Guam", &[671]),
    (
        "America/Toronto",
        &[226, 249, 289, 343, 365, 416, 437, 519, 548, 613, 647, 683, 705, 742, 753, 807, 905],
    ),
    ("America/Montreal", &[263, 354, 367, 418, 438, 450, 468, 514, 579, 581, 819, 873]),
    ("America/Winnipeg", &[204, 431, 584]),
    ("America/Regina", &[306, 474, 639]),
    ("America/Edmonton", &[368, 403, 587, 780, 825]),
    ("America/Vancouver", &[236, 250, 257, 604, 672, 778]),
    ("America/Halifax", &[782, 902]),
    ("America/Moncton", &[428, 506]),
    ("America/St_Johns", &[709, 879]),
    ("America/Jamaica", &[658, 876]),
    ("America/Nassau", &[242]),
    ("America/Barbados", &[246]),
    ("America/Port_of_Spain", &[868]),
    ("America/Santo_Domingo", &[809, 829, 849]),
];

/// Country calling codes to the country's main zone (longest code wins).
const COUNTRIES: &[(&str, &str)] = &[
    ("7", "Europe/Moscow"),
    ("20", "Africa/Cairo"),
    ("27", "Africa/Johannesburg"),
    ("30", "Europe/Athens"),
    ("31", "Europe/Amsterdam"),
    ("32", "Europe/Brussels"),
    ("33", "Europe/Paris"),
    ("34", "Europe/Madrid"),
    ("36", "Europe/Budapest"),
    ("39", "Europe/Rome"),
    ("40", "Europe/Bucharest"),
    ("41", "Europe/Zurich"),
    ("43", "Europe/Vienna"),
    ("44", "Europe/London"),
    ("45", "Europe/Copenhagen"),
    ("46", "Europe/Stockholm"),
    ("47", "Europe/Oslo"),
    ("48", "Europe/Warsaw"),
    ("49", "Europe/Berlin"),
    ("51", "America/Lima"),
    ("52", "America/Mexico_City"),
    ("54", "America/Argentina/Buenos_Aires"),
    ("55", "America/Sao_Paulo"),
    ("56", "America/Santiago"),
    ("57", "America/Bogota"),
    ("58", "America/Caracas"),
    ("60", "Asia/Kuala_Lumpur"),
    ("61", "Australia/Sydney"),
    ("62", "Asia/Jakarta"),
    ("63", "Asia/Manila"),
    ("64", "Pacific/Auckland"),
    ("65", "Asia/Singapore"),
    ("66", "Asia/Bangkok"),
    ("81", "Asia/Tokyo"),
    ("82", "Asia/Seoul"),
    ("84", "Asia/Ho_Chi_Minh"),
    ("86", "Asia/Shanghai"),
    ("90", "Europe/Istanbul"),
    ("91", "Asia/Kolkata"),
    ("92", "Asia/Karachi"),
    ("94", "Asia/Colombo"),
    ("98", "Asia/Tehran"),
    ("212", "Africa/Casablanca"),
    ("234", "Africa/Lagos"),
    ("254", "Africa/Nairobi"),
    ("351", "Europe/Lisbon"),
    ("353", "Europe/Dublin"),
    ("358", "Europe/Helsinki"),
    ("380", "Europe/Kyiv"),
    ("420", "Europe/Prague"),
    ("852", "Asia/Hong_Kong"),
    ("880", "Asia/Dhaka"),
    ("886", "Asia/Taipei"),
    ("961", "Asia/Beirut"),
    ("962", "Asia/Amman"),
    ("965", "Asia/Kuwait"),
    ("966", "Asia/Riyadh"),
    ("971", "Asia/Dubai"),
    ("972", "Asia/Jerusalem"),
    ("974", "Asia/Qatar"),
    ("977", "Asia/Kathmandu"),
];

/// The zone a number suggests, if the tables know it. `number` is E.164.
pub fn zone_of_number(number: &str) -> Option<Tz> {
    let digits = number.strip_prefix('+')?;
    if let Some(rest) = digits.strip_prefix('1') {
        let area: u16 = rest.get(..3)?.parse().ok()?;
        let (zone, _) = NANP.iter().find(|(_, codes)| codes.contains(&area))?;
        return zone.parse().ok();
    }
    (1..=3)
        .rev()
        .filter_map(|n| digits.get(..n))
        .find_map(|cc| COUNTRIES.iter().find(|(code, _)| *code == cc))
        .and_then(|(_, zone)| zone.parse().ok())
}

/// The recipient's zone: the contact's, else the number's, else `fallback`.
pub fn recipient_zone(contact_zone: Option<&str>, number: &str, fallback: Tz) -> Tz {
    contact_zone.and_then(|z| z.parse().ok()).or_else(|| zone_of_number(number)).unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn z(n: &str) -> Option<String> {
        zone_of_number(n).map(|t| t.name().to_owned())
    }

    #[test]
    fn every_zone_in_the_tables_exists() {
        for (zone, _) in NANP {
            assert!(zone.parse::<Tz>().is_ok(), "{zone}");
        }
        for (_, zone) in COUNTRIES {
            assert!(zone.parse::<Tz>().is_ok(), "{zone}");
        }
    }

    #[test]
    fn nanp_area_codes_by_region() {
        assert_eq!(z("+12125550100").as_deref(), Some("America/New_York")); // New York
        assert_eq!(z("+13125550100").as_deref(), Some("America/Chicago")); // Chicago
        assert_eq!(z("+13035550100").as_deref(), Some("America/Denver")); // Denver
        assert_eq!(z("+16025550100").as_deref(), Some("America/Phoenix")); // Arizona, no DST
        assert_eq!(z("+14155550100").as_deref(), Some("America/Los_Angeles")); // San Francisco
        assert_eq!(z("+19075550100").as_deref(), Some("America/Anchorage")); // Alaska
        assert_eq!(z("+18085550100").as_deref(), Some("Pacific/Honolulu")); // Hawaii
        assert_eq!(z("+17875550100").as_deref(), Some("America/Puerto_Rico"));
        assert_eq!(z("+14165550100").as_deref(), Some("America/Toronto")); // Canada, Eastern
        assert_eq!(z("+16045550100").as_deref(), Some("America/Vancouver")); // Canada, Pacific
        assert_eq!(z("+17095550100").as_deref(), Some("America/St_Johns")); // Newfoundland
        assert_eq!(z("+18765550100").as_deref(), Some("America/Jamaica")); // Caribbean
        assert_eq!(z("+15555550100"), None, "unassigned area code");
    }

    #[test]
    fn countries_by_calling_code() {
        assert_eq!(z("+447700900123").as_deref(), Some("Europe/London"));
        assert_eq!(z("+33612345678").as_deref(), Some("Europe/Paris"));
        assert_eq!(z("+4915112345678").as_deref(), Some("Europe/Berlin"));
        assert_eq!(z("+353851234567").as_deref(), Some("Europe/Dublin"), "3 digits beat 35");
        assert_eq!(z("+819012345678").as_deref(), Some("Asia/Tokyo"));
        assert_eq!(z("+61412345678").as_deref(), Some("Australia/Sydney"));
        assert_eq!(z("+5511912345678").as_deref(), Some("America/Sao_Paulo"));
        assert_eq!(z("+2348012345678").as_deref(), Some("Africa/Lagos"));
        assert_eq!(z("+971501234567").as_deref(), Some("Asia/Dubai"));
        assert_eq!(z("+79161234567").as_deref(), Some("Europe/Moscow"));
        assert_eq!(z("+9999999999"), None);
    }

    #[test]
    fn the_contact_zone_wins_then_the_number_then_the_fallback() {
        assert_eq!(recipient_zone(Some("Asia/Tokyo"), "+14155550100", Tz::UTC).name(), "Asia/Tokyo");
        assert_eq!(recipient_zone(None, "+14155550100", Tz::UTC).name(), "America/Los_Angeles");
        assert_eq!(recipient_zone(None, "+9999999999", Tz::Europe__Paris).name(), "Europe/Paris");
    }
}
