// Rules a test code can take: iPhones to the App Store page, Android visitors split 50/50
// between two pages, everyone else to the code's own destination.
export const IOS_RULE_AND_ANDROID_SPLIT = [
  { name: 'iPhones', conditions: [{ type: 'os', op: 'in', values: ['ios'] }], destination: 'https://apps.example.com/ios' },
  {
    name: 'Android split',
    conditions: [{ type: 'os', op: 'in', values: ['android'] }],
    split: [
      { destination: 'https://example.com/a', weight: 50 },
      { destination: 'https://example.com/b', weight: 50 },
    ],
  },
];
